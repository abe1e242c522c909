/**
 * Trace context and export behaviour over the fault fakes: an incoming `traceparent` is
 * continued (and its `tracestate` kept), its sampled flag respected (parent-based sampling),
 * a malformed one starts a new trace; a collector that is down or refuses costs requests
 * nothing and logs one warning; `close` exports what is still queued.
 */
import assert from "node:assert/strict";
import { startTracing } from "../../observe/tracing/start_tracing.ts";
import { bodyFor, deadUrl, PATH } from "../reliability/reliability_rig.ts";
import { keptLog, otelEnv, startTracingRig, traceparentOf } from "./tracing_kit.ts";

const t = await startTracingRig();
const { rig, receiver } = t;

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

/** A chat request to gpt-a carrying `headers`. */
function sendWith(headers: Record<string, string>): Promise<Response> {
  return fetch(`${rig.url}${PATH.chat}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${rig.h.key}`,
      "content-type": "application/json",
      ...headers,
    },
    body: JSON.stringify(bodyFor("chat", "gpt-a")),
  });
}

Deno.test("tracing: an incoming traceparent is continued, and its tracestate sent upstream", async () => {
  rig.reset();
  const response = await sendWith({
    traceparent: `00-${TRACE}-${PARENT}-01`,
    tracestate: "vendor=opaque",
  });
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const { server, clients } = await t.spansOf((await rig.row(response)).requestId, 1);
  assert.equal(server.traceId, TRACE, "the same trace");
  assert.equal(server.parentSpanId, PARENT, "the caller's span is the parent");
  assert.equal(clients[0]!.traceId, TRACE);
  const upstream = rig.a.requests[0]!.headers;
  assert.equal(upstream.traceparent, traceparentOf(clients[0]!));
  assert.equal(upstream.tracestate, "vendor=opaque");
});

Deno.test("tracing: an unsampled incoming trace exports nothing, and says so upstream", async () => {
  rig.reset();
  const unsampled = "0af7651916cd43dd8448eb211c80319c";
  const response = await sendWith({ traceparent: `00-${unsampled}-b7ad6b7169203331-00` });
  assert.equal(response.status, 200);
  await response.body?.cancel();
  await rig.row(response);
  const upstream = rig.a.requests[0]!.headers.traceparent ?? "";
  assert.match(upstream, new RegExp(`^00-${unsampled}-[0-9a-f]{16}-00$`));
  // A sampled request after it: once its spans are in, the unsampled one's would be too.
  const after = await sendWith({});
  await after.body?.cancel();
  await t.spansOf((await rig.row(after)).requestId, 1);
  assert.ok(receiver.spans().every((span) => span.traceId !== unsampled));
});

Deno.test("tracing: a malformed traceparent starts a new trace", async () => {
  rig.reset();
  const response = await sendWith({ traceparent: "00-not-a-trace-01" });
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const { server } = await t.spansOf((await rig.row(response)).requestId, 1);
  assert.equal(server.parentSpanId, "");
  assert.match(server.traceId, /^[0-9a-f]{32}$/);
});

Deno.test({
  name: "tracing: a collector that is down costs requests nothing and logs one warning",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    rig.reset();
    const log = keptLog();
    const env: Record<string, string> = {
      ...otelEnv(deadUrl()),
      OTEL_EXPORTER_OTLP_TIMEOUT: "500",
    };
    const down = await startTracing((name) => env[name], log);
    assert.ok(down);
    t.use(down.observer);
    try {
      for (let i = 0; i < 4; i++) {
        const response = await sendWith({});
        assert.equal(response.status, 200);
        await response.body?.cancel();
        assert.equal((await rig.row(response)).outcome, "ok");
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      const warned = () => log.lines.filter((line) => line.level === "warn");
      for (let waited = 0; warned().length === 0 && waited < 3000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(warned().length, 1, JSON.stringify(log.lines));
      assert.match(warned()[0]!.message, /exporting spans failed/);
      const closing = Date.now();
      await down.close();
      assert.ok(Date.now() - closing < 1500, "close does not wait on a dead collector");
      assert.equal(warned().length, 1, "and says nothing more");
    } finally {
      t.use(t.tracing.observer);
    }
  },
});

Deno.test("tracing: a refused export warns once, and its recovery is one info line", async () => {
  rig.reset();
  receiver.failWith(400);
  const before = t.log.lines.length;
  try {
    for (let i = 0; i < 3; i++) {
      const response = await sendWith({});
      assert.equal(response.status, 200);
      await response.body?.cancel();
      await rig.row(response);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
  } finally {
    receiver.failWith(null);
  }
  const response = await sendWith({});
  await response.body?.cancel();
  await t.spansOf((await rig.row(response)).requestId, 1);
  // The receiver holds the spans before the exporter has read its answer: wait for that answer.
  const lines = () => t.log.lines.slice(before).map((line) => `${line.level} ${line.message}`);
  for (let waited = 0; lines().length < 2 && waited < 3000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.deepEqual(lines(), [
    "warn tracing: exporting spans failed; they are dropped until the collector answers",
    "info tracing: exporting spans works again",
  ]);
});

Deno.test({
  name: "tracing: close exports the spans still queued",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    rig.reset();
    const env: Record<string, string> = {
      ...otelEnv(receiver.url),
      OTEL_BSP_SCHEDULE_DELAY: "60000",
    };
    const slow = await startTracing((name) => env[name], keptLog());
    assert.ok(slow);
    t.use(slow.observer);
    try {
      const response = await sendWith({});
      await response.body?.cancel();
      const id = (await rig.row(response)).requestId;
      const mine = () =>
        receiver.spans().filter((s) => s.attributes["gatehouse.request_id"] === id);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(mine().length, 0, "still queued");
      await slow.close();
      assert.equal(mine().length, 1, "exported at close");
    } finally {
      t.use(t.tracing.observer);
    }
  },
});

Deno.test({
  name: "tracing: close the context rig",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () => t.close(),
});
