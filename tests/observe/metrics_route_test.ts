/**
 * `GET /metrics` on the API port (admin key only; 404 in the error envelope when metrics are
 * off), `METRICS_PORT` without a key, and the key label only with
 * `GATEHOUSE_METRICS_KEY_LABELS=1`.
 */
import assert from "node:assert/strict";
import { makeHarness } from "../harness.ts";
import { serveMetricsPort, startMetricsServer } from "../../observe/metrics/metrics_server.ts";
import { parseExposition, samplesOf, total } from "../../observe/metrics/testing.ts";
import { memoryLogger } from "../../gateway/log.ts";

const SERIES = {
  gatehouse_requests_total: "counter",
  gatehouse_request_duration_seconds: "histogram",
  gatehouse_gateway_overhead_seconds: "histogram",
  gatehouse_time_to_first_token_seconds: "histogram",
  gatehouse_upstream_attempts_total: "counter",
  gatehouse_upstream_attempt_duration_seconds: "histogram",
  gatehouse_retries_total: "counter",
  gatehouse_fallbacks_total: "counter",
  gatehouse_tokens_total: "counter",
  gatehouse_cost_usd_total: "counter",
  gatehouse_limit_rejections_total: "counter",
  gatehouse_requests_in_flight: "gauge",
  gatehouse_streams_open: "gauge",
  gatehouse_deployment_state: "gauge",
  gatehouse_limits_ready: "gauge",
  gatehouse_budget_remaining_usd: "gauge",
  gatehouse_budget_usd: "gauge",
};

const chat = { model: "gpt-5", messages: [{ role: "user", content: "Hi" }] };

Deno.test("/metrics: 401 without a key, 403 for a key that is not an admin's, 200 text for an admin", async () => {
  const h = await makeHarness();
  try {
    const none = await h.request("/metrics");
    assert.equal(none.status, 401);
    assert.match((await none.json()).error.message, /No API key/);
    const user = await h.request("/metrics", { headers: { authorization: `Bearer ${h.key}` } });
    assert.equal(user.status, 403);
    assert.equal((await user.json()).error.code, "admin_key_required");
    const answer = await h.request("/metrics", {
      headers: { authorization: `Bearer ${h.adminKey}` },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const x = parseExposition(await answer.text());
    assert.deepEqual(Object.fromEntries(x.types), SERIES);
    for (const name of Object.keys(SERIES)) assert.ok(x.help.get(name), `${name} has help`);
  } finally {
    await h.close();
  }
});

Deno.test("/metrics: 404 in the error envelope, saying how to turn them on, when metrics are off", async () => {
  const h = await makeHarness({ env: { GATEHOUSE_METRICS: "off" } });
  try {
    assert.equal(h.deps.metrics, undefined, "no metrics are built");
    const answer = await h.request("/metrics", {
      headers: { authorization: `Bearer ${h.adminKey}` },
    });
    assert.equal(answer.status, 404);
    const body = await answer.json();
    assert.equal(body.error.code, "metrics_off");
    assert.equal(body.error.type, "invalid_request_error");
    assert.match(body.error.message, /GATEHOUSE_METRICS=off.*unset GATEHOUSE_METRICS/);
  } finally {
    await h.close();
  }
});

Deno.test("/metrics: the key's name is a label only with GATEHOUSE_METRICS_KEY_LABELS=1", async () => {
  for (const flag of ["0", "1"]) {
    const h = await makeHarness({ env: { GATEHOUSE_METRICS_KEY_LABELS: flag } });
    try {
      const response = await h.request("/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${h.key}` },
        json: chat,
      });
      assert.equal(response.status, 200);
      await response.body?.cancel();
      const text = await (await h.request("/metrics", {
        headers: { authorization: `Bearer ${h.adminKey}` },
      })).text();
      const x = parseExposition(text);
      assert.equal(total(x, "gatehouse_requests_total"), 1);
      const keyed = samplesOf(x, "gatehouse_requests_total", { key: "test" });
      assert.equal(keyed.length, flag === "1" ? 1 : 0, text);
      assert.ok(
        samplesOf(x, "gatehouse_request_duration_seconds_count").every((s) => !("key" in s.labels)),
      );
    } finally {
      await h.close();
    }
  }
});

Deno.test("METRICS_PORT: /metrics without a key; nothing else there", async () => {
  const h = await makeHarness();
  const server = await startMetricsServer({
    hostname: "127.0.0.1",
    port: 0,
    endpoint: h.deps.metrics!,
    log: h.deps.log,
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const answer = await fetch(`${url}/metrics`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
    assert.ok(parseExposition(await answer.text()).types.has("gatehouse_requests_total"));
    const other = await fetch(`${url}/v1/models`);
    assert.equal(other.status, 404);
    await other.body?.cancel();
    const post = await fetch(`${url}/metrics`, { method: "POST" });
    assert.equal(post.status, 405);
    await post.body?.cancel();
  } finally {
    await server.shutdown();
    await h.close();
  }
});

Deno.test("METRICS_PORT: served by the first worker only, and not when metrics are off", async () => {
  const h = await makeHarness();
  const log = memoryLogger();
  const env = (values: Record<string, string>) => (name: string) => values[name];
  const parts = { hostname: "127.0.0.1", endpoint: h.deps.metrics, log };
  try {
    assert.equal(await serveMetricsPort({ ...parts, env: env({}), worker: 0 }), null);
    const on = env({ METRICS_PORT: "0" });
    assert.equal(await serveMetricsPort({ ...parts, env: on, worker: 1 }), null);
    assert.equal(
      await serveMetricsPort({ ...parts, env: on, worker: 0, endpoint: undefined }),
      null,
    );
    assert.ok(log.lines.some((l) => l.level === "warn" && /metrics are off/.test(l.message)));
    const server = await serveMetricsPort({ ...parts, env: on, worker: 0 });
    assert.ok(server);
    const answer = await fetch(`http://127.0.0.1:${server.addr.port}/metrics`);
    assert.equal(answer.status, 200);
    await answer.body?.cancel();
    await server.shutdown();
  } finally {
    await h.close();
  }
});
