import assert from "node:assert/strict";
import { Catalog } from "../catalog/catalog.ts";
import { parseCatalogConfig } from "../catalog/parse_config.ts";
import { startFakeServer } from "../tests/fakes/fake_server.ts";
import { makeHarness } from "../tests/harness.ts";

Deno.test("count_tokens asks the model's Anthropic deployment when its first one is another provider's", async () => {
  const openai = startFakeServer(
    "openai",
    () => Response.json({ error: "not here" }, { status: 404 }),
  );
  const anthropic = startFakeServer("anthropic", () => Response.json({ input_tokens: 42 }));
  const env: Record<string, string> = { OPENAI_API_KEY: "sk-o", ANTHROPIC_API_KEY: "sk-a" };
  const config = parseCatalogConfig({
    providers: {
      openai: { kind: "openai", base_url: openai.url, api_key_env: "OPENAI_API_KEY" },
      anthropic: { kind: "anthropic", base_url: anthropic.url, api_key_env: "ANTHROPIC_API_KEY" },
    },
    models: [{
      id: "claude-x",
      deployments: [{ provider: "openai" }, { provider: "anthropic" }],
      endpoint_types: ["anthropic", "openai"],
    }],
    setup_defaults: { flagship: "claude-x", previous: "claude-x", previous_mini: "claude-x" },
  }, "count test catalog");
  const h = await makeHarness({ demo: false, catalog: new Catalog(config, (n) => env[n]), env });
  try {
    const response = await h.request("/v1/messages/count_tokens", {
      method: "POST",
      headers: { authorization: `Bearer ${h.key}` },
      json: { model: "claude-x", messages: [{ role: "user", content: "Hi" }] },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { input_tokens: 42 }, "the provider's own count");
    assert.equal(response.headers.get("x-gatehouse-warnings"), null);
    assert.deepEqual(anthropic.requests.map((r) => r.path), ["/v1/messages/count_tokens"]);
    assert.equal(openai.requests.length, 0);
    assert.equal(h.rows[0]?.attemptLog?.[0]?.deployment, "claude-x@anthropic");
  } finally {
    await h.close();
    await openai.close();
    await anthropic.close();
  }
});
