import assert from "node:assert/strict";
import { type AttemptRecord, OUTCOMES, type UsageRecord } from "../store.ts";
import { openDatabase } from "./open.ts";
import { UsageLedger } from "./usage.ts";

const JAN1 = Date.UTC(2025, 0, 1);

function usage(overrides: Partial<UsageRecord>): UsageRecord {
  return {
    requestId: "req_test",
    keyId: "key_a",
    model: "gpt-x",
    servedModel: "gpt-x",
    upstream: "openai",
    upstreamId: null,
    route: "/v1/chat/completions",
    status: 200,
    outcome: "ok",
    attempts: 1,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    images: 0,
    cost: 0,
    latencyMs: 5,
    firstByteMs: null,
    stream: false,
    time: JAN1,
    ...overrides,
  };
}

/** `i` attempts: the first ones failed with 529, the last answered. */
function attemptsOf(i: number): AttemptRecord[] {
  return Array.from({ length: i % 3 }, (_, n) => ({
    deployment: `m${i}@openai#${n}`,
    provider: "openai",
    model: `m${i}`,
    status: n + 1 < i % 3 ? 529 : 200,
    result: n + 1 < i % 3 ? "retryable_status" : "ok",
    ms: n + 0.5,
  }));
}

Deno.test("UsageLedger: a batch of many rows (several multi-row inserts and a remainder) is written whole, each row's columns in place", () => {
  const db = openDatabase(":memory:");
  const ledger = new UsageLedger(db);
  const rows = 70;
  for (let i = 0; i < rows; i++) {
    ledger.record(usage({
      requestId: `req_${i}`,
      model: `m${i}`,
      servedModel: `s${i}`,
      upstreamId: i % 2 === 0 ? `up_${i}` : null,
      outcome: OUTCOMES[i % OUTCOMES.length]!,
      attempts: i % 3,
      attemptLog: i % 3 === 0 ? undefined : attemptsOf(i),
      firstByteMs: i % 4 === 0 ? null : i + 0.25,
      inputTokens: i,
      outputTokens: i * 2,
      cachedTokens: i * 3,
      cacheWriteTokens: i * 4,
      reasoningTokens: i * 5,
      images: i % 3,
      cost: i / 4,
      latencyMs: i + 0.5,
      stream: i % 2 === 0,
      time: JAN1 + i,
    }));
  }
  ledger.flush();
  const written = db.prepare("SELECT * FROM usage ORDER BY time").all();
  assert.equal(written.length, rows);
  written.forEach((row, i) => {
    assert.deepEqual({ ...row, id: undefined }, {
      id: undefined,
      request_id: `req_${i}`,
      key_id: "key_a",
      model: `m${i}`,
      served_model: `s${i}`,
      upstream: "openai",
      upstream_id: i % 2 === 0 ? `up_${i}` : null,
      route: "/v1/chat/completions",
      status: 200,
      outcome: OUTCOMES[i % OUTCOMES.length],
      attempts: i % 3,
      attempt_log: i % 3 === 0 ? null : JSON.stringify(attemptsOf(i)),
      first_byte_ms: i % 4 === 0 ? null : i + 0.25,
      input_tokens: i,
      output_tokens: i * 2,
      cached_tokens: i * 3,
      cache_write_tokens: i * 4,
      reasoning_tokens: i * 5,
      images: i % 3,
      cost: i / 4,
      latency_ms: i + 0.5,
      stream: i % 2 === 0 ? 1 : 0,
      aborted: OUTCOMES[i % OUTCOMES.length] === "client_disconnect" ? 1 : 0,
      time: JAN1 + i,
    });
  });
  db.close();
});

Deno.test("UsageLedger: rows wait in the queue until the batch is written", async () => {
  const db = openDatabase(":memory:");
  const ledger = new UsageLedger(db);
  const count = () => db.prepare("SELECT COUNT(*) AS n FROM usage").get()?.n;
  ledger.record(usage({ requestId: "req_1" }));
  ledger.record(usage({ requestId: "req_2" }));
  assert.deepEqual(ledger.pending.map((r) => r.requestId), ["req_1", "req_2"]);
  assert.equal(count(), 0);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(ledger.pending.length, 0);
  assert.equal(count(), 2);
  db.close();
});

Deno.test("UsageLedger: an empty attempt log is written as NULL, like an absent one", () => {
  const db = openDatabase(":memory:");
  const ledger = new UsageLedger(db);
  ledger.record(usage({ requestId: "req_none", attempts: 0, attemptLog: [] }));
  ledger.record(usage({ requestId: "req_absent", attempts: 0 }));
  ledger.flush();
  const logs = db.prepare("SELECT attempt_log FROM usage ORDER BY id").all();
  assert.deepEqual(logs.map((row) => row.attempt_log), [null, null]);
  db.close();
});
