import assert from "node:assert/strict";
import { type Outcome, OUTCOMES, type UsageRecord } from "../store.ts";
import { openDatabase } from "./open.ts";
import { UsageLedger } from "./usage.ts";

const DAY_MS = 86_400_000;
const JAN1 = Date.UTC(2025, 0, 1);

/** Every outcome at 0, with `counts` over it. */
function outcomes(counts: Partial<Record<Outcome, number>> = {}): Record<Outcome, number> {
  return { ...Object.fromEntries(OUTCOMES.map((o) => [o, 0])), ...counts } as Record<
    Outcome,
    number
  >;
}

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

function ledgerWithRows(): UsageLedger {
  const ledger = new UsageLedger(openDatabase(":memory:"));
  ledger.record(
    usage({ model: "gpt-x", inputTokens: 10, outputTokens: 1, cost: 0.25, time: JAN1 }),
  );
  ledger.record(usage({
    model: "claude-y",
    inputTokens: 20,
    outputTokens: 2,
    cachedTokens: 5,
    cacheWriteTokens: 6,
    reasoningTokens: 7,
    images: 1,
    cost: 0.5,
    stream: true,
    outcome: "client_disconnect",
    time: JAN1 + DAY_MS - 1,
  }));
  ledger.record(
    usage({ model: "gpt-x", inputTokens: 30, outputTokens: 3, cost: 1, time: JAN1 + DAY_MS }),
  );
  // Outside the window on both sides.
  ledger.record(usage({ model: "gpt-x", inputTokens: 1000, cost: 100, time: JAN1 - 1 }));
  ledger.record(usage({ model: "gpt-x", inputTokens: 1000, cost: 100, time: JAN1 + 2 * DAY_MS }));
  // Another key inside the window.
  ledger.record(usage({ keyId: "key_b", model: "gpt-x", inputTokens: 500, cost: 50, time: JAN1 }));
  return ledger;
}

const WINDOW = { keyId: "key_a", start: JAN1, end: JAN1 + 2 * DAY_MS };

Deno.test("usage report: totals over [start, end) for one key only", () => {
  const report = ledgerWithRows().report(WINDOW);
  assert.deepEqual(report, {
    totals: {
      requests: 3,
      inputTokens: 60,
      outputTokens: 6,
      cachedTokens: 5,
      cacheWriteTokens: 6,
      reasoningTokens: 7,
      images: 1,
      cost: 1.75,
      outcomes: outcomes({ ok: 2, client_disconnect: 1 }),
    },
  });
});

Deno.test("usage report: grouped by model, sorted by model id", () => {
  const { groups } = ledgerWithRows().report({ ...WINDOW, groupBy: "model" });
  assert.deepEqual(groups?.map((g) => [g.key, g.requests, g.inputTokens, g.cost]), [
    ["claude-y", 1, 20, 0.5],
    ["gpt-x", 2, 40, 1.25],
  ]);
});

Deno.test("usage report: grouped by UTC day as YYYY-MM-DD", () => {
  const { totals, groups } = ledgerWithRows().report({ ...WINDOW, groupBy: "day" });
  assert.equal(totals.requests, 3);
  assert.deepEqual(groups?.map((g) => [g.key, g.requests, g.inputTokens, g.cost]), [
    ["2025-01-01", 2, 30, 0.75],
    ["2025-01-02", 1, 30, 1],
  ]);
});

Deno.test("usage report: empty window gives zero totals and no groups", () => {
  const ledger = ledgerWithRows();
  const empty = ledger.report({ keyId: "key_a", start: 0, end: 1, groupBy: "model" });
  assert.deepEqual(empty, {
    totals: {
      requests: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      images: 0,
      cost: 0,
      outcomes: outcomes(),
    },
    groups: [],
  });
  assert.equal(ledger.report({ ...WINDOW, keyId: "nobody" }).totals.requests, 0);
});

Deno.test("usage report: the other key sees only its own rows", () => {
  const report = ledgerWithRows().report({ ...WINDOW, keyId: "key_b", groupBy: "day" });
  assert.equal(report.totals.requests, 1);
  assert.equal(report.totals.inputTokens, 500);
  assert.deepEqual(report.groups?.map((g) => g.key), ["2025-01-01"]);
});

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
  const report = ledger.report({ keyId: "key_a", start: JAN1, end: JAN1 + rows });
  assert.equal(report.totals.requests, rows);
  assert.deepEqual(
    report.totals.outcomes,
    Object.fromEntries(
      OUTCOMES.map((o, k) => [o, Math.ceil((rows - k) / OUTCOMES.length)]),
    ),
  );
  db.close();
});
