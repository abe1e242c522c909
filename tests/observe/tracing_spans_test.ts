/**
 * OpenTelemetry traces end to end over the fault fakes, exported to a local OTLP/HTTP receiver:
 * the spans of a passthrough, a translated and a retried request (server span, one client span
 * per attempt, parent links, GenAI, HTTP and gatehouse attributes), the `traceparent` each
 * upstream call carried, a failure's status, and that no prompt, output or secret is in any
 * exported payload.
 */
import assert from "node:assert/strict";
import { readStream } from "../governance/gov_kit.ts";
import { startTracingRig, traceparentOf } from "./tracing_kit.ts";

const t = await startTracingRig();
const { rig, receiver } = t;
/** A prompt whose text must never reach a span (the scripted upstream echoes it back too). */
const PROMPT = "PROMPT-7f3a2c secret plans for the weekend";

Deno.test("tracing: a passthrough request has a server span and a client span", async () => {
  rig.reset();
  const response = await rig.send("chat", "gpt-a", { maxTokens: 64, text: PROMPT });
  assert.equal(response.status, 200);
  assert.match(await response.text(), /You said: PROMPT-7f3a2c/);
  const row = await rig.row(response);
  const { server, clients } = await t.spansOf(row.requestId, 1);

  assert.equal(server.name, "POST /v1/chat/completions");
  assert.equal(server.kind, "server");
  assert.equal(server.parentSpanId, "", "no incoming traceparent: a new trace");
  assert.equal(server.status, 0);
  assert.equal(server.resource["service.name"], "gatehouse-test");
  assert.equal(server.resource["deployment.environment.name"], "test");
  assert.equal(server.scope, "gatehouse");
  const a = server.attributes;
  assert.equal(a["http.request.method"], "POST");
  assert.equal(a["http.route"], "/v1/chat/completions");
  assert.equal(a["http.response.status_code"], 200);
  assert.equal(a["gen_ai.operation.name"], "chat");
  assert.equal(a["gen_ai.provider.name"], "openai");
  assert.equal(a["gen_ai.request.model"], "gpt-a");
  assert.equal(a["gen_ai.response.model"], "gpt-a");
  assert.equal(a["gen_ai.request.max_tokens"], 64);
  assert.equal(a["gen_ai.request.stream"], false);
  assert.equal(a["gen_ai.usage.input_tokens"], row.inputTokens);
  assert.equal(a["gen_ai.usage.output_tokens"], row.outputTokens);
  assert.ok(row.outputTokens > 0);
  assert.deepEqual(a["gen_ai.response.finish_reasons"], ["stop"]);
  assert.equal(a["gatehouse.request_id"], row.requestId);
  assert.equal(a["gatehouse.key.id"], row.keyId);
  assert.equal(a["gatehouse.outcome"], "ok");
  assert.equal(a["gatehouse.attempts"], 1);
  assert.equal(a["gatehouse.provider"], "openai-a");
  assert.equal(a["gatehouse.mode"], "passthrough");
  assert.ok(Math.abs(Number(a["gatehouse.cost_usd"]) - row.cost) < 1e-12);
  assert.ok(row.cost > 0);
  assert.equal(typeof a["gatehouse.overhead_ms"], "number");
  assert.ok(!("error.type" in a));

  assert.equal(clients.length, 1);
  const client = clients[0]!;
  assert.equal(client.name, "chat gpt-a");
  assert.equal(client.kind, "client");
  assert.equal(client.traceId, server.traceId);
  assert.equal(client.parentSpanId, server.spanId);
  assert.equal(client.status, 0);
  const c = client.attributes;
  assert.equal(c["gen_ai.operation.name"], "chat");
  assert.equal(c["gen_ai.provider.name"], "openai");
  assert.equal(c["gen_ai.request.model"], "gpt-a");
  assert.equal(c["gen_ai.response.model"], "gpt-a");
  assert.equal(c["gen_ai.request.max_tokens"], 64);
  assert.equal(c["gen_ai.usage.input_tokens"], row.inputTokens);
  assert.equal(c["gen_ai.usage.output_tokens"], row.outputTokens);
  assert.deepEqual(c["gen_ai.response.finish_reasons"], ["stop"]);
  assert.equal(c["http.request.method"], "POST");
  assert.equal(c["http.response.status_code"], 200);
  assert.equal(c["server.address"], "127.0.0.1");
  assert.equal(c["server.port"], Number(new URL(rig.a.url).port));
  assert.equal(c["gatehouse.attempt"], 1);
  assert.equal(c["gatehouse.attempt.result"], "ok");
  assert.equal(c["gatehouse.deployment"], "gpt-a@openai-a");

  assert.ok(server.start <= client.start && client.end <= server.end, "the client span nests");
  assert.ok(server.start <= row.time + 5 && server.start >= row.time - 50, "starts at arrival");
  assert.equal(rig.a.requests.length, 1);
  assert.equal(rig.a.requests[0]!.headers.traceparent, traceparentOf(client));
  assert.equal(receiver.headers[0]?.get("x-collector-token"), "test token");
});

Deno.test("tracing: a translated stream's spans", async () => {
  rig.reset();
  const response = await rig.send("messages", "gpt-a", { stream: true, text: PROMPT });
  assert.equal(response.status, 200);
  assert.equal((await readStream("messages", response)).ending, "clean");
  const row = await rig.row(response);
  const { server, clients } = await t.spansOf(row.requestId, 1);
  assert.equal(server.name, "POST /v1/messages");
  assert.equal(server.attributes["gatehouse.mode"], "translated");
  assert.equal(server.attributes["gen_ai.request.stream"], true);
  assert.equal(server.attributes["gen_ai.request.max_tokens"], 64);
  assert.deepEqual(server.attributes["gen_ai.response.finish_reasons"], ["end_turn"]);
  assert.equal(server.attributes["gen_ai.provider.name"], "openai");
  assert.equal(server.attributes["gen_ai.usage.output_tokens"], row.outputTokens);
  assert.equal(typeof server.attributes["gatehouse.first_byte_ms"], "number");
  const client = clients[0]!;
  assert.equal(clients.length, 1);
  assert.equal(client.name, "chat gpt-a");
  assert.equal(client.parentSpanId, server.spanId);
  assert.equal(rig.a.requests[0]!.path, "/v1/chat/completions", "called over the chat wire");
  assert.equal(rig.a.requests[0]!.headers.traceparent, traceparentOf(client));
});

Deno.test("tracing: a retried request has a failed client span, then the one that answered", async () => {
  rig.reset();
  rig.a.push({ status: 503, headers: { "retry-after-ms": "10" } });
  const response = await rig.send("chat", "gpt-a", { stream: true, text: PROMPT });
  assert.equal(response.status, 200);
  await readStream("chat", response);
  const row = await rig.row(response);
  assert.equal(row.attempts, 2);
  const { server, clients } = await t.spansOf(row.requestId, 2);
  assert.equal(server.status, 0);
  assert.equal(server.attributes["gatehouse.attempts"], 2);
  assert.equal(server.attributes["gatehouse.outcome"], "ok");
  assert.equal(clients.length, 2);
  const [first, second] = [clients[0]!, clients[1]!];
  for (const client of clients) {
    assert.equal(client.parentSpanId, server.spanId);
    assert.equal(client.traceId, server.traceId);
  }
  assert.equal(first.attributes["gatehouse.attempt"], 1);
  assert.equal(first.status, 2, "the failed attempt is an error");
  assert.equal(first.attributes["error.type"], "503");
  assert.equal(first.attributes["http.response.status_code"], 503);
  assert.equal(first.attributes["gatehouse.attempt.result"], "retryable_status");
  assert.ok(!("gen_ai.usage.output_tokens" in first.attributes), "no usage on a failed attempt");
  assert.equal(second.attributes["gatehouse.attempt"], 2);
  assert.equal(second.status, 0);
  assert.equal(second.attributes["gatehouse.attempt.result"], "ok");
  assert.equal(second.attributes["gen_ai.usage.output_tokens"], row.outputTokens);
  assert.ok(first.end <= second.start, "the attempts follow each other");
  assert.deepEqual(
    rig.a.requests.map((r) => r.headers.traceparent),
    [traceparentOf(first), traceparentOf(second)],
    "each upstream call names its own client span",
  );
});

Deno.test("tracing: a failed request's spans are errors naming their cause", async () => {
  rig.reset();
  rig.a.push({ status: 400 });
  const failed = await rig.send("chat", "gpt-a", { text: PROMPT });
  assert.equal(failed.status, 400);
  await failed.body?.cancel();
  const row = await rig.row(failed);
  const { server, clients } = await t.spansOf(row.requestId, 1);
  assert.equal(server.status, 2);
  assert.equal(server.attributes["error.type"], "upstream_error");
  assert.equal(server.attributes["http.response.status_code"], 400);
  assert.equal(clients[0]!.attributes["error.type"], "400");

  rig.a.push("cut");
  const cut = await rig.send("chat", "gpt-a", { stream: true, text: PROMPT });
  assert.equal((await readStream("chat", cut)).ending, "error");
  const cutRow = await rig.row(cut);
  assert.equal(cutRow.outcome, "upstream_cut");
  const broken = await t.spansOf(cutRow.requestId, 1);
  assert.equal(broken.server.attributes["error.type"], "upstream_cut");
  const answering = broken.clients[0]!;
  assert.equal(answering.attributes["gatehouse.attempt.result"], "ok", "it answered, then broke");
  assert.equal(answering.attributes["error.type"], "upstream_cut");
  assert.equal(answering.status, 2);

  const refused = await rig.send("chat", "no-such-model", { text: PROMPT });
  assert.equal(refused.status, 404);
  await refused.body?.cancel();
  const refusal = await t.spansOf((await rig.row(refused)).requestId, 0);
  assert.equal(refusal.clients.length, 0, "no upstream call, no client span");
  assert.equal(refusal.server.status, 2);
  assert.equal(refusal.server.attributes["error.type"], "model_not_found");
  assert.equal(refusal.server.attributes["gatehouse.outcome"], "rejected");
});

Deno.test("tracing: no prompt, output or secret in any exported payload", () => {
  const payload = receiver.bodies.join("\n");
  assert.ok(payload.length > 0);
  for (const secret of [PROMPT, "PROMPT-7f3a2c", "You said", rig.h.key, "sk-a", "sk-ant-a"]) {
    assert.ok(!payload.includes(secret), `${secret} is not exported`);
  }
});

Deno.test({
  name: "tracing: close the rig",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () => t.close(),
});
