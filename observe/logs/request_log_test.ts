import assert from "node:assert/strict";
import { consoleLogger, memoryLogger } from "../../gateway/log.ts";
import type { SettledRequest } from "../observer.ts";
import { testSettled, testUsageRecord } from "../test_requests.ts";
import { testKeyRecord } from "../../store/test_records.ts";
import { memorySink } from "./sink.ts";
import { requestLine, requestLogObserver, requestText } from "./request_log.ts";

const key = testKeyRecord({
  id: "k7x2m9q4ab",
  name: "alice laptop",
  hint: "gth_k7x2m9q4…",
  createdAt: 0,
  team: "research",
});

const record = testUsageRecord({
  requestId: "req_abc123",
  keyId: key.id,
  servedModel: "gpt-5-mini",
  upstreamId: "chatcmpl-upstream",
  attempts: 2,
  inputTokens: 120,
  outputTokens: 45,
  cachedTokens: 64,
  reasoningTokens: 12,
  cost: 0.000412,
  latencyMs: 812,
});

const settled: SettledRequest = testSettled(record, {
  key,
  userAgent: "claude-cli/2.0.1 (external, cli)\u0007",
  durationMs: 812.4,
  firstByteMs: 120.2,
  overheadMs: 1.23456,
  upstreamMs: 700,
});

/** Runs one request through the observer's lifecycle calls. */
function observe(observer: ReturnType<typeof requestLogObserver>, request: SettledRequest) {
  const observation = observer.begin({
    requestId: request.record.requestId,
    route: request.record.route,
    key,
    stream: true,
    receivedAt: 0,
    model: request.record.model,
    maxTokens: null,
    userAgent: request.userAgent,
    traceparent: null,
    tracestate: null,
  });
  assert.ok(observation);
  assert.equal(observation.attemptStarted({} as never, 1), undefined, "adds no upstream header");
  observation.settled(request);
}

Deno.test("request line (json): every field, in order, one JSON object", () => {
  const sink = memorySink();
  observe(requestLogObserver(consoleLogger({ format: "json", sink })), settled);
  assert.equal(sink.lines.length, 1);
  const line = JSON.parse(sink.lines[0]!);
  assert.match(line.time, /^\d{4}-\d\d-\d\dT/);
  delete line.time;
  assert.deepEqual(line, {
    level: "info",
    event: "request",
    message: "request",
    requestId: "req_abc123",
    keyId: key.id,
    keyName: "alice laptop",
    team: "research",
    route: "/v1/chat/completions",
    stream: true,
    model: "gpt-5",
    servedModel: "gpt-5-mini",
    provider: "openai",
    status: 200,
    outcome: "ok",
    refusal: null,
    limit: null,
    latencyMs: 812,
    ttfbMs: 120,
    overheadMs: 1.23,
    inputTokens: 120,
    outputTokens: 45,
    cachedTokens: 64,
    reasoningTokens: 12,
    costUsd: 0.000412,
    attempts: 2,
    userAgent: "claude-cli/2.0.1 (external, cli)",
  });
});

Deno.test("request line (text): one compact readable line", () => {
  const sink = memorySink();
  observe(requestLogObserver(consoleLogger({ format: "text", sink })), settled);
  assert.equal(sink.lines.length, 1);
  assert.match(
    sink.lines[0]!,
    new RegExp(
      "^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z INFO request req_abc123 /v1/chat/completions 200 ok " +
        'key="k7x2m9q4ab/alice laptop" team=research model=gpt-5 served=gpt-5-mini ' +
        "provider=openai latency=812ms ttfb=120ms overhead=1.23ms in=120 out=45 cached=64 " +
        'reasoning=12 cost=\\$0.000412 attempts=2 ua="claude-cli/2.0.1 \\(external, cli\\)"$',
    ),
  );
});

Deno.test("request line (text): a refusal shows its code; empty values read as -", () => {
  const refused: SettledRequest = {
    ...settled,
    record: {
      ...record,
      servedModel: "",
      upstream: "",
      status: 429,
      outcome: "rejected",
      attempts: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
      reasoningTokens: 0,
      cost: 0,
      firstByteMs: null,
    },
    key: { ...key, team: null },
    userAgent: null,
    refusal: "rate_limit_exceeded",
    limit: "rpm",
    overheadMs: null,
  };
  const text = requestText(requestLine(refused));
  assert.equal(
    text,
    'request req_abc123 /v1/chat/completions 429 rejected key="k7x2m9q4ab/alice laptop" ' +
      "refusal=rate_limit_exceeded limit=rpm model=gpt-5 served=- provider=- latency=812ms ttfb=- " +
      "in=0 out=0 cached=0 reasoning=0 cost=$0 attempts=0 ua=-",
  );
});

Deno.test("request log on a memory logger: an info line `request` with the fields", () => {
  const log = memoryLogger();
  observe(requestLogObserver(log), settled);
  assert.equal(log.lines.length, 1);
  assert.equal(log.lines[0]!.message, "request");
  assert.equal(log.lines[0]!.level, "info");
  assert.equal(log.lines[0]!.fields?.requestId, "req_abc123");
});

Deno.test("request log: a worker's lines carry its number", () => {
  const sink = memorySink();
  const log = consoleLogger({ format: "json", sink, fields: { worker: 3 } });
  observe(requestLogObserver(log), settled);
  assert.equal(JSON.parse(sink.lines[0]!).worker, 3);
  const text = memorySink();
  observe(requestLogObserver(consoleLogger({ sink: text, fields: { worker: 3 } })), settled);
  assert.match(text.lines[0]!, / worker=3$/);
});
