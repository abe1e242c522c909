/**
 * Traces from a real gateway process: `main.ts --demo` with `OTEL_EXPORTER_OTLP_ENDPOINT` set to
 * a local OTLP/HTTP receiver and a batch delay far longer than the test, so the spans arrive only
 * because the SIGTERM shutdown flushes them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSqliteStore } from "../../store/sqlite/sqlite_store.ts";
import { type GatewayProcess, startGateway } from "../governance/gateway_process.ts";
import { startReceiver } from "./tracing_receiver.ts";

const TRACE = "5bf92f3577b34da6a3ce929d0e0e4736";
const PROMPT = "PROMPT-e2e-91c4 do not export me";

Deno.test("tracing: a gateway process exports its spans at SIGTERM", async () => {
  const dir = await Deno.makeTempDir();
  const dbPath = join(dir, "gatehouse.db");
  const receiver = startReceiver();
  let gateway: GatewayProcess | null = null;
  try {
    const seed = openSqliteStore(dbPath);
    const { key, record } = await seed.createKey("traced");
    await seed.close();
    gateway = await startGateway(dbPath, {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: "600000",
        OTEL_SERVICE_NAME: "gatehouse-e2e",
      },
    });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        traceparent: `00-${TRACE}-00f067aa0ba902b7-01`,
      },
      body: JSON.stringify({ model: "gpt-5", messages: [{ role: "user", content: PROMPT }] }),
    });
    assert.equal(response.status, 200);
    const requestId = response.headers.get("x-request-id");
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(receiver.spans().length, 0, "nothing exported before the shutdown");

    const exit = await gateway.stop();
    assert.equal(exit.code, 0, gateway.output());
    assert.match(gateway.output(), /tracing: exporting spans over OTLP\/HTTP/);
    const spans = receiver.spans();
    const server = spans.find((span) => span.kind === "server");
    assert.ok(server, `a server span was flushed at SIGTERM:\n${gateway.output()}`);
    assert.equal(server.traceId, TRACE);
    assert.equal(server.name, "POST /v1/chat/completions");
    assert.equal(server.resource["service.name"], "gatehouse-e2e");
    assert.equal(server.attributes["gatehouse.request_id"], requestId);
    assert.equal(server.attributes["gatehouse.key.id"], record.id);
    assert.equal(server.attributes["gen_ai.request.model"], "gpt-5");
    assert.equal(server.attributes["gatehouse.outcome"], "ok");
    const client = spans.find((span) => span.kind === "client");
    assert.ok(client);
    assert.equal(client.parentSpanId, server.spanId);
    assert.equal(client.attributes["gen_ai.provider.name"], "gatehouse.mock");
    assert.ok(!("server.address" in client.attributes), "the in-process mock has no address");
    const payload = receiver.bodies.join("\n");
    assert.ok(!payload.includes("PROMPT-e2e-91c4"), "no prompt in the payload");
    assert.ok(!payload.includes(key), "no key in the payload");
  } finally {
    await gateway?.stop();
    await receiver.close();
    await Deno.remove(dir, { recursive: true });
  }
});
