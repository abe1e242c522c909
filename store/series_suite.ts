/**
 * The shared store tests of {@link Store.usageSeries} (registered by `store_suite.ts`, so they run
 * on SQLite, pglite and a real Postgres server): bucket sums equal the ledger's, nearest-rank
 * percentiles over a known set, groups folded past the limit, an empty store.
 * @module
 */
import assert from "node:assert/strict";
import type { Outcome, Store, UsageRecord } from "./store.ts";

type Register = (title: string, fn: (store: Store) => Promise<void>) => void;

const HOUR = 3_600_000;
const T0 = Date.UTC(2025, 0, 1);

/** A ledger row; `n` makes its request id unique. */
function row(n: number, fields: Partial<UsageRecord>): UsageRecord {
  return {
    requestId: `req_series_${n}`,
    keyId: "k",
    model: "m",
    servedModel: "m",
    upstream: "u",
    upstreamId: null,
    route: "/v1/chat/completions",
    status: 200,
    outcome: "ok",
    attempts: 1,
    inputTokens: 10,
    outputTokens: 5,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    images: 0,
    cost: 0.5,
    latencyMs: 100,
    firstByteMs: null,
    stream: false,
    time: T0,
    ...fields,
  };
}

/** Registers the series tests. */
export function registerSeriesTests(test: Register): void {
  test("usageSeries: an empty store has no buckets", async (store) => {
    const series = await store.usageSeries({
      start: T0,
      end: T0 + 24 * HOUR,
      bucketMs: HOUR,
      groupBy: "model",
    });
    assert.deepEqual(series, { groups: [], cells: [], stats: [] });
  });

  test("usageSeries: bucket sums equal the ledger, nearest-rank percentiles", async (store) => {
    const rows: UsageRecord[] = [];
    // Bucket 0: latencies 1..20 ms, every other one with a first byte (10, 20, ... 100 ms).
    for (let i = 1; i <= 20; i++) {
      rows.push(row(i, {
        time: T0 + i * 1000,
        latencyMs: 21 - i,
        firstByteMs: i % 2 === 0 ? i * 5 : null,
        servedModel: i <= 12 ? "a" : "b",
        model: i <= 12 ? "a" : "b",
        cost: i <= 12 ? 1 : 0.25,
        outcome: (i === 3 ? "timeout" : i === 4 ? "client_disconnect" : "ok") as Outcome,
      }));
    }
    // A refusal before any upstream call: counted, not in the percentiles.
    rows.push(row(21, { time: T0 + 5, attempts: 0, latencyMs: 9999, outcome: "rejected" }));
    // Bucket 2, and rows outside the window.
    rows.push(row(22, { time: T0 + 2 * HOUR + 1, latencyMs: 7, firstByteMs: 3, model: "a" }));
    rows.push(row(23, { time: T0 - 1, cost: 100 }));
    rows.push(row(24, { time: T0 + 3 * HOUR, cost: 100 }));
    for (const r of rows) await store.recordUsage(r);

    const query = { start: T0, end: T0 + 3 * HOUR, bucketMs: HOUR } as const;
    const series = await store.usageSeries({ ...query, groupBy: "model" });
    assert.deepEqual(series.groups, ["a", "b", "m"]);
    const report = await store.usageReport({ start: query.start, end: query.end });
    const sum = (pick: (c: typeof series.cells[number]) => number) =>
      series.cells.reduce((total, c) => total + pick(c), 0);
    assert.equal(sum((c) => c.requests), report.totals.requests);
    assert.equal(sum((c) => c.cost), report.totals.cost);
    assert.equal(sum((c) => c.inputTokens), report.totals.inputTokens);
    assert.equal(sum((c) => c.outputTokens), report.totals.outputTokens);
    assert.equal(sum((c) => c.errors), 2, "the timeout and the refusal");
    assert.deepEqual(
      series.cells.map((c) => [c.bucket, c.group, c.requests, c.cost]),
      [[0, "a", 12, 12], [0, "b", 8, 2], [0, "m", 1, 0.5], [2, "m", 1, 0.5]],
    );
    assert.deepEqual(series.stats, [
      // 20 latencies: rank 10 and rank 19; 10 first bytes: rank 5 and rank 10.
      { bucket: 0, latencyP50: 10, latencyP95: 19, firstByteP50: 50, firstByteP95: 100 },
      { bucket: 2, latencyP50: 7, latencyP95: 7, firstByteP50: 3, firstByteP95: 3 },
    ]);
  });

  test("usageSeries: by key and by team, the groups past the limit folded into one", async (store) => {
    await store.createTeam("eng", {});
    const a = (await store.createKey({ name: "a", team: "eng" })).record.id;
    const b = (await store.createKey({ name: "b", team: "eng" })).record.id;
    const c = (await store.createKey("c")).record.id;
    const costs: Array<[string, number]> = [[a, 3], [b, 2], [c, 4], [a, 1]];
    let n = 0;
    for (const [keyId, cost] of costs) {
      await store.recordUsage(row(++n, { keyId, cost, time: T0 + n * HOUR }));
    }
    const query = { start: T0, end: T0 + 24 * HOUR, bucketMs: 24 * HOUR } as const;
    const byTeam = await store.usageSeries({ ...query, groupBy: "team" });
    assert.deepEqual(byTeam.groups, ["eng", ""]);
    assert.deepEqual(byTeam.cells.map((cell) => [cell.group, cell.cost]), [["eng", 6], ["", 4]]);
    const byKey = await store.usageSeries({ ...query, groupBy: "key", groups: 1 });
    assert.deepEqual(byKey.groups, [a, null]);
    assert.deepEqual(byKey.cells.map((cell) => [cell.group, cell.requests, cell.cost]), [
      [a, 2, 4],
      [null, 2, 6],
    ]);
  });
}
