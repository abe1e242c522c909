import assert from "node:assert/strict";
import { Catalog } from "../../catalog/catalog.ts";
import { parseCatalogConfig } from "../../catalog/parse_config.ts";
import { makeHarness } from "../../tests/harness.ts";
import { adminCall, assertError } from "./admin_test_kit.ts";

const NOW = Date.UTC(2026, 4, 1, 12);

/** Two providers: `multi` on both (weights 3 and 1), `hidden` on one, a pattern on the other. */
function catalog(): Catalog {
  const config = parseCatalogConfig({
    providers: {
      a: { kind: "openai", base_url: "http://a.example", api_key_env: "A_KEY" },
      b: { kind: "openai_compatible", base_url: "http://b.example", api_key_env: "B_KEY" },
    },
    models: [
      {
        id: "multi",
        endpoint_types: ["openai"],
        deployments: [{ provider: "a", weight: 3 }, { provider: "b", upstream_id: "multi-b" }],
      },
      { id: "hidden", provider: "a", endpoint_types: ["openai"], flags: { hidden: true } },
    ],
    patterns: [{ pattern: "local-*", provider: "b", endpoint_types: ["openai"] }],
    setup_defaults: { flagship: "multi", previous: "multi", previous_mini: "multi" },
  }, "test");
  const env: Record<string, string> = { A_KEY: "ka", B_KEY: "kb" };
  return new Catalog(config, (name) => env[name]);
}

const HEALTHY = {
  state: "healthy",
  in_flight: 0,
  consecutive_failures: 0,
  recent: { window_seconds: 300, requests: 0, errors: 0, error_rate: 0 },
  cooldown_until: null,
  last_error: null,
};

Deno.test("admin deployments: admin keys only", async () => {
  const h = await makeHarness();
  try {
    assertError(await adminCall(h, "GET", "/admin/v1/deployments", undefined, h.key), 403, {
      code: "admin_key_required",
    });
    const answer = await adminCall(h, "GET", "/admin/v1/deployments");
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.object, "list");
    assert.equal(answer.body.data.length, h.deps.catalog.deployments().length);
    assert.deepEqual(answer.body.data[0], {
      id: "gpt-5.5-large@mock",
      model: "gpt-5.5-large",
      pattern: null,
      provider: "mock",
      upstream_id: "gpt-5.5-large",
      weight: 1,
      listed: true,
      ...HEALTHY,
    });
  } finally {
    await h.close();
  }
});

Deno.test("admin deployments: every model's and pattern's, in catalog order, with its health", async () => {
  let now = NOW;
  const h = await makeHarness({ catalog: catalog(), clock: () => now });
  try {
    const health = h.deps.health;
    // multi@a: one success, then three failures in a row: cooling for the cool-down.
    const answered = health.begin("multi@a");
    answered.succeeded();
    answered.done();
    for (let i = 0; i < 3; i++) {
      const ticket = health.begin("multi@a");
      ticket.failed(`HTTP 529 (overloaded) #${i}`);
      ticket.done();
    }
    // multi@b: one call still running.
    health.begin("multi@b");
    now += 1000;

    const { status, body } = await adminCall(h, "GET", "/admin/v1/deployments");
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.data, [
      {
        id: "multi@a",
        model: "multi",
        pattern: null,
        provider: "a",
        upstream_id: "multi",
        weight: 3,
        listed: true,
        ...HEALTHY,
        state: "cooling",
        consecutive_failures: 3,
        recent: { window_seconds: 300, requests: 4, errors: 3, error_rate: 0.75 },
        cooldown_until: new Date(NOW + h.deps.config.cooldownMs).toISOString(),
        last_error: "HTTP 529 (overloaded) #2",
      },
      {
        id: "multi@b",
        model: "multi",
        pattern: null,
        provider: "b",
        upstream_id: "multi-b",
        weight: 1,
        listed: true,
        ...HEALTHY,
        in_flight: 1,
      },
      {
        id: "hidden@a",
        model: "hidden",
        pattern: null,
        provider: "a",
        upstream_id: "hidden",
        weight: 1,
        listed: false,
        ...HEALTHY,
      },
      {
        id: "local-*@b",
        model: null,
        pattern: "local-*",
        provider: "b",
        upstream_id: "local-*",
        weight: 1,
        listed: true,
        ...HEALTHY,
      },
    ]);

    // After the cool-down: probing, the failures and the last error still shown.
    now = NOW + h.deps.config.cooldownMs + 1;
    const later = await adminCall(h, "GET", "/admin/v1/deployments");
    const first = later.body.data[0];
    assert.deepEqual([first.state, first.cooldown_until, first.consecutive_failures], [
      "probing",
      null,
      3,
    ]);
    assert.equal(first.last_error, "HTTP 529 (overloaded) #2");
  } finally {
    await h.close();
  }
});
