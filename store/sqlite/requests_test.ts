import assert from "node:assert/strict";
import { type AttemptRecord, REQUESTS_LIMIT, type UsageRecord } from "../store.ts";
import { openDatabase } from "./open.ts";
import { RequestLog, requestsQuery } from "./requests.ts";
import { attemptLogOf, requestsLimit } from "../ledger_rows.ts";
import { UsageLedger } from "./usage.ts";

const JAN1 = Date.UTC(2025, 0, 1);
const ALL = { start: JAN1, end: JAN1 + 86_400_000 };

function usage(overrides: Partial<UsageRecord>): UsageRecord {
  return {
    requestId: "req_test",
    keyId: "key_a",
    model: "gpt-x",
    servedModel: "gpt-x",
    upstream: "openai",
    upstreamId: "chatcmpl-upstream",
    route: "/v1/chat/completions",
    status: 200,
    outcome: "ok",
    attempts: 1,
    inputTokens: 10,
    outputTokens: 5,
    cachedTokens: 1,
    cacheWriteTokens: 2,
    reasoningTokens: 3,
    images: 0,
    cost: 0.25,
    latencyMs: 12.5,
    firstByteMs: 4.5,
    stream: false,
    time: JAN1,
    ...overrides,
  };
}

const FALLBACK: AttemptRecord[] = [
  {
    deployment: "claude-x@anthropic",
    provider: "anthropic",
    model: "claude-x",
    status: 529,
    result: "retryable_status",
    ms: 80,
  },
  {
    deployment: "claude-x@anthropic",
    provider: "anthropic",
    model: "claude-x",
    status: 0,
    result: "header_timeout",
    ms: 600,
  },
  {
    deployment: "gpt-x@openai",
    provider: "openai",
    model: "gpt-x",
    status: 200,
    result: "ok",
    ms: 95,
  },
];

/** key_a and key_b in team "red", key_c without one; six requests a minute apart, one queued. */
function fixture() {
  const db = openDatabase(":memory:");
  db.exec("INSERT INTO teams VALUES ('red', '{}', 0, 0)");
  for (const [id, team] of [["key_a", "red"], ["key_b", "red"], ["key_c", null]] as const) {
    db.prepare(
      "INSERT INTO api_keys (id, name, key_hash, hint, created_at, team) VALUES (?, ?, '', '', 0, ?)",
    ).run(id, id, team);
  }
  const ledger = new UsageLedger(db);
  const rows = [
    usage({ requestId: "req_0", keyId: "key_a" }),
    usage({
      requestId: "req_1",
      keyId: "key_b",
      model: "claude-x",
      servedModel: "gpt-x",
      attempts: 3,
      attemptLog: FALLBACK,
      stream: true,
    }),
    usage({ requestId: "req_2", keyId: "key_c", model: "claude-x", servedModel: "claude-x" }),
    usage({
      requestId: "req_3",
      keyId: "key_a",
      status: 503,
      outcome: "upstream_error",
      firstByteMs: null,
    }),
    usage({ requestId: "req_4", keyId: "key_c", outcome: "rejected", status: 403, attempts: 0 }),
    usage({ requestId: "req_5", keyId: "key_b" }),
  ].map((row, i) => ({ ...row, time: JAN1 + i * 60_000 }));
  rows.forEach((row) => ledger.record(row));
  ledger.flush();
  // The last one stays queued: a listing writes it first.
  ledger.record(usage({ requestId: "req_6", keyId: "key_a", time: JAN1 + 6 * 60_000 }));
  const log = new RequestLog(db, ledger);
  const ids = (query: Partial<Parameters<RequestLog["list"]>[0]> = {}) =>
    log.list({ ...ALL, ...query }).map((r) => r.requestId);
  return { db, log, ids };
}

Deno.test("RequestLog: newest first, queued rows included, each with its fields and attempts", () => {
  const { db, log, ids } = fixture();
  assert.deepEqual(ids(), ["req_6", "req_5", "req_4", "req_3", "req_2", "req_1", "req_0"]);
  const fallback = log.list({ ...ALL, requestId: "req_1" });
  assert.deepEqual(fallback, [{
    requestId: "req_1",
    keyId: "key_b",
    model: "claude-x",
    servedModel: "gpt-x",
    upstream: "openai",
    route: "/v1/chat/completions",
    status: 200,
    outcome: "ok",
    attempts: 3,
    attemptLog: FALLBACK,
    inputTokens: 10,
    outputTokens: 5,
    cost: 0.25,
    latencyMs: 12.5,
    firstByteMs: 4.5,
    stream: true,
    time: JAN1 + 60_000,
  }]);
  const [failed] = log.list({ ...ALL, requestId: "req_3" });
  assert.equal(failed?.firstByteMs, null);
  assert.deepEqual(failed?.attemptLog, []);
  db.close();
});

Deno.test("RequestLog: each filter narrows; model matches the requested or the served one", () => {
  const { db, ids } = fixture();
  assert.deepEqual(ids({ keyId: "key_a" }), ["req_6", "req_3", "req_0"]);
  assert.deepEqual(ids({ team: "red" }), ["req_6", "req_5", "req_3", "req_1", "req_0"]);
  assert.deepEqual(ids({ team: "red", keyId: "key_b" }), ["req_5", "req_1"]);
  assert.deepEqual(ids({ team: "blue" }), []);
  assert.deepEqual(ids({ model: "claude-x" }), ["req_2", "req_1"]);
  assert.deepEqual(ids({ model: "gpt-x", keyId: "key_b" }), ["req_5", "req_1"]);
  assert.deepEqual(ids({ outcome: "upstream_error" }), ["req_3"]);
  assert.deepEqual(ids({ outcome: "rejected", keyId: "key_a" }), []);
  assert.deepEqual(ids({ requestId: "req_4" }), ["req_4"]);
  assert.deepEqual(ids({ requestId: "req_nope" }), []);
  db.close();
});

Deno.test("RequestLog: the window is [start, end) and the limit keeps the newest", () => {
  const { db, ids } = fixture();
  assert.deepEqual(ids({ start: JAN1 + 60_000, end: JAN1 + 3 * 60_000 }), ["req_2", "req_1"]);
  assert.deepEqual(ids({ limit: 2 }), ["req_6", "req_5"]);
  assert.deepEqual(ids({ limit: 2, keyId: "key_c" }), ["req_4", "req_2"]);
  assert.deepEqual(ids({ limit: 0 }), ["req_6"], "at least one");
  db.close();
});

Deno.test("requestsLimit: 1 to the most, the default when none", () => {
  assert.equal(requestsLimit(undefined), REQUESTS_LIMIT.default);
  assert.equal(requestsLimit(5000), REQUESTS_LIMIT.max);
  assert.equal(requestsLimit(-3), 1);
  assert.equal(requestsLimit(7.9), 7);
  assert.equal(requestsLimit(Number.NaN), 1);
});

Deno.test("attemptLogOf: NULL is no attempts; anything but an array of attempts is a schema mismatch", () => {
  assert.deepEqual(attemptLogOf(null), []);
  assert.deepEqual(attemptLogOf(JSON.stringify(FALLBACK)), FALLBACK);
  assert.throws(() => attemptLogOf("{}"), /store schema mismatch: usage.attempt_log/);
  const bad = [{ ...FALLBACK[0], result: "exploded" }];
  assert.throws(() => attemptLogOf(JSON.stringify(bad)), /attempt_log entry/);
});

Deno.test("requestsQuery: the newest rows come off an index in order, with no sort, unless by team", () => {
  const db = openDatabase(":memory:");
  const plan = (query: Parameters<typeof requestsQuery>[0]) => {
    const { sql, args } = requestsQuery(query);
    return db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args).map((row) => String(row.detail))
      .join("\n");
  };
  for (const query of [{}, { model: "m" }, { outcome: "ok" as const }, { requestId: "r" }]) {
    const seen = plan({ ...ALL, ...query });
    assert.match(seen, /SEARCH usage USING INDEX usage_time \(time>\? AND time<\?\)/, seen);
    assert.doesNotMatch(seen, /TEMP B-TREE/, seen);
  }
  const byKey = plan({ ...ALL, keyId: "k", model: "m" });
  assert.match(byKey, /USING INDEX usage_key_time \(key_id=\? AND time>\? AND time<\?\)/, byKey);
  assert.doesNotMatch(byKey, /TEMP B-TREE/, byKey);
  db.close();
});
