import assert from "node:assert/strict";
import type { DatabaseSync } from "node:sqlite";
import { type Outcome, OUTCOMES, type UsageRecord } from "../store.ts";
import { openDatabase } from "./open.ts";
import { UsageLedger } from "./usage.ts";
import { spendQuery, UsageReports } from "./usage_report.ts";

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

interface Fixture {
  db: DatabaseSync;
  ledger: UsageLedger;
  reports: UsageReports;
}

/** key_a and key_b in team "red", key_c without a team; rows queued, not yet written. */
function fixture(): Fixture {
  const db = openDatabase(":memory:");
  db.exec("INSERT INTO teams VALUES ('red', '{}', 0, 0)");
  for (const [id, team] of [["key_a", "red"], ["key_b", "red"], ["key_c", null]]) {
    db.prepare(
      "INSERT INTO api_keys (id, name, key_hash, hint, created_at, team) VALUES (?, ?, '', '', 0, ?)",
    ).run(id ?? "", id ?? "", team ?? null);
  }
  const ledger = new UsageLedger(db);
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
  // Other keys inside the window.
  ledger.record(usage({ keyId: "key_b", model: "gpt-x", inputTokens: 500, cost: 50, time: JAN1 }));
  ledger.record(usage({ keyId: "key_c", model: "m", inputTokens: 7, cost: 4, time: JAN1 }));
  return { db, ledger, reports: new UsageReports(db, ledger) };
}

const WINDOW = { keyId: "key_a", start: JAN1, end: JAN1 + 2 * DAY_MS };

Deno.test("usage report: totals over [start, end) for one key only, queued rows included", () => {
  const { reports, ledger } = fixture();
  assert.equal(ledger.pending.length, 7);
  assert.deepEqual(reports.report(WINDOW), {
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
  assert.equal(ledger.pending.length, 0, "the report wrote the queue first");
});

Deno.test("usage report: grouped by model, sorted by model id", () => {
  const { groups } = fixture().reports.report({ ...WINDOW, groupBy: "model" });
  assert.deepEqual(groups?.map((g) => [g.key, g.requests, g.inputTokens, g.cost]), [
    ["claude-y", 1, 20, 0.5],
    ["gpt-x", 2, 40, 1.25],
  ]);
});

Deno.test("usage report: grouped by UTC day as YYYY-MM-DD", () => {
  const { totals, groups } = fixture().reports.report({ ...WINDOW, groupBy: "day" });
  assert.equal(totals.requests, 3);
  assert.deepEqual(groups?.map((g) => [g.key, g.requests, g.inputTokens, g.cost]), [
    ["2025-01-01", 2, 30, 0.75],
    ["2025-01-02", 1, 30, 1],
  ]);
});

Deno.test("usage report: empty window gives zero totals and no groups", () => {
  const { reports } = fixture();
  const empty = reports.report({ keyId: "key_a", start: 0, end: 1, groupBy: "model" });
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
  assert.equal(reports.report({ ...WINDOW, keyId: "nobody" }).totals.requests, 0);
});

Deno.test("usage report: the other key sees only its own rows", () => {
  const report = fixture().reports.report({ ...WINDOW, keyId: "key_b", groupBy: "day" });
  assert.equal(report.totals.requests, 1);
  assert.equal(report.totals.inputTokens, 500);
  assert.deepEqual(report.groups?.map((g) => g.key), ["2025-01-01"]);
});

Deno.test("usage report: without a key or team, every key's rows; grouped by key", () => {
  const { reports } = fixture();
  const window = { start: JAN1, end: JAN1 + 2 * DAY_MS };
  const report = reports.report({ ...window, groupBy: "key" });
  assert.equal(report.totals.requests, 5);
  assert.equal(report.totals.cost, 55.75);
  assert.deepEqual(report.groups?.map((g) => [g.key, g.requests, g.cost]), [
    ["key_a", 3, 1.75],
    ["key_b", 1, 50],
    ["key_c", 1, 4],
  ]);
});

Deno.test("usage report: a team's keys only, and grouping by each key's current team", () => {
  const { db, reports } = fixture();
  const window = { start: JAN1, end: JAN1 + 2 * DAY_MS };
  const red = reports.report({ ...window, team: "red", groupBy: "key" });
  assert.equal(red.totals.requests, 4);
  assert.deepEqual(red.groups?.map((g) => g.key), ["key_a", "key_b"]);
  assert.equal(reports.report({ ...window, team: "red", keyId: "key_b" }).totals.requests, 1);
  assert.equal(reports.report({ ...window, team: "red", keyId: "key_c" }).totals.requests, 0);
  assert.equal(reports.report({ ...window, team: "blue" }).totals.requests, 0);

  const byTeam = reports.report({ ...window, groupBy: "team" });
  assert.deepEqual(byTeam.groups?.map((g) => [g.key, g.requests, g.cost]), [
    ["", 1, 4],
    ["red", 4, 51.75],
  ]);
  // A key that moves takes its history with it: groups follow the key's current team.
  db.exec("UPDATE api_keys SET team = NULL WHERE id = 'key_b'");
  const moved = reports.report({ ...window, groupBy: "team" });
  assert.deepEqual(moved.groups?.map((g) => [g.key, g.requests]), [["", 2], ["red", 3]]);
  // Rows of a key with no row in api_keys (the ledger keeps them) are in no team.
  db.exec("DELETE FROM api_keys WHERE id = 'key_a'");
  const orphaned = reports.report({ ...window, groupBy: "team" });
  assert.deepEqual(orphaned.groups?.map((g) => [g.key, g.requests]), [["", 5]]);
});

Deno.test("spend: a key's or a team's cost since start, queued rows counted without writing them", () => {
  const { ledger, reports } = fixture();
  assert.equal(reports.spend({ keyId: "key_a", start: JAN1 }), 101.75);
  assert.equal(reports.spend({ keyId: "key_a", start: JAN1 + DAY_MS }), 101);
  assert.equal(reports.spend({ team: "red", start: JAN1 }), 151.75);
  assert.equal(reports.spend({ team: "blue", start: 0 }), 0);
  assert.equal(reports.spend({ keyId: "nobody", start: 0 }), 0);
  assert.equal(ledger.pending.length, 7, "spend does not write the queue");
  ledger.flush();
  assert.equal(reports.spend({ keyId: "key_a", start: JAN1 }), 101.75);
  assert.equal(reports.spend({ team: "red", start: JAN1 }), 151.75);
  // Half written, half queued.
  ledger.record(usage({ keyId: "key_b", cost: 2, time: JAN1 + 5 }));
  ledger.record(usage({ keyId: "key_c", cost: 3, time: JAN1 + 5 }));
  ledger.record(usage({ keyId: "key_a", cost: 8, time: JAN1 - 5 }));
  assert.equal(reports.spend({ team: "red", start: JAN1 }), 153.75);
  assert.equal(reports.spend({ keyId: "key_c", start: JAN1 }), 7);
  assert.equal(reports.spend({ keyId: "key_a", start: 0 }), 209.75);
  ledger.flush();
});

Deno.test("spend: a key's and a team's sums use the usage_key_time index", () => {
  const { db } = fixture();
  for (const query of [{ keyId: "key_a", start: 0 }, { team: "red", start: 0 }]) {
    const { sql, args } = spendQuery(query);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args)
      .map((row) => String(row.detail)).join("\n");
    assert.match(plan, /USING (COVERING )?INDEX usage_key_time/, plan);
  }
});
