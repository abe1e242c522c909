/**
 * One `--workers`-like writer for `wal_checkpointer_test.ts`: a file store of its own on the
 * shared file, recording `perTick` ledger rows every 5 ms for `ms`, then closed.
 * @module
 */
/// <reference lib="deno.worker" />
import { benchUsageRecord } from "../../../bench/scale/ledger_rate.ts";
import { openSqliteStore } from "../sqlite_store.ts";

self.onmessage = async (
  event: MessageEvent<{ path: string; id: number; perTick: number; ms: number }>,
) => {
  const { path, id, perTick, ms } = event.data;
  const store = openSqliteStore(path);
  const now = Date.now();
  let next = id * 1_000_000;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < perTick; i++) await store.recordUsage(benchUsageRecord(next++, now));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await store.close();
  self.postMessage(next - id * 1_000_000);
};
