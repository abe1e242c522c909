/**
 * Ledger rows per second a store sustains with its batching: `recordUsage` is called for N
 * rows as fast as the store accepts them (in slices, yielding between them so batches are
 * written as they would be under load), and the clock stops when a second connection counts all
 * N rows in the `usage` table.
 * @module
 */
import type { Store, UsageRecord } from "../../store/store.ts";

/** What one ledger measurement found. */
export interface LedgerRate {
  store: "sqlite" | "postgres";
  /** Rows submitted. */
  rows: number;
  /** Rows counted in the table when the clock stopped. */
  written: number;
  /** From the first call to the last row counted. */
  seconds: number;
  rowsPerSecond: number;
  /** `recordUsage` calls that rejected. */
  failedCalls: number;
}

/** Rows submitted between two yields to the event loop. */
const SLICE = 500;

/** One ledger row as a streamed chat request writes it; `i` makes its id unique. */
export function benchUsageRecord(i: number, now: number): UsageRecord {
  return {
    requestId: `req_bench_${i.toString(36).padStart(8, "0")}`,
    keyId: `benchkey${i % 8}`,
    model: "bench-chat",
    servedModel: "bench-chat",
    upstream: "compat",
    upstreamId: `chatcmpl-${i}`,
    route: "/v1/chat/completions",
    status: 200,
    outcome: "ok",
    attempts: 1,
    attemptLog: [{
      deployment: "bench-chat@compat",
      provider: "compat",
      model: "bench-chat",
      status: 200,
      result: "ok",
      ms: 1,
    }],
    inputTokens: 330,
    outputTokens: 100,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    images: 0,
    cost: 0.00113,
    latencyMs: 2,
    firstByteMs: 1,
    stream: true,
    time: now + i,
  };
}

/** Calls `store.recordUsage` for `rows` rows and waits until `count()` (the `usage` table's rows,
 * read on another connection) reaches them, or `timeoutMs` passes. The store is not closed. */
export async function measureLedgerRate(
  store: Store,
  rows: number,
  count: () => Promise<number>,
  timeoutMs = 120_000,
): Promise<LedgerRate> {
  const now = Date.now();
  const records = Array.from({ length: rows }, (_, i) => benchUsageRecord(i, now));
  let failedCalls = 0;
  const calls: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < rows; i += SLICE) {
    for (const record of records.slice(i, i + SLICE)) {
      calls.push(store.recordUsage(record).catch(() => void failedCalls++));
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  let written = await count();
  while (written < rows && performance.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    written = await count();
  }
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(calls);
  return {
    store: store.kind,
    rows,
    written,
    seconds,
    rowsPerSecond: written / seconds,
    failedCalls,
  };
}
