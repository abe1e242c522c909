/**
 * Test helpers for the bench's reports.
 * @module
 */
import type { LoadResult } from "./load.ts";

/** A 5-second load result at `throughput` req/s, without errors (latencies 1 ms, p99 2 ms). */
export function resultAt(throughput: number): LoadResult {
  return {
    requests: throughput * 5,
    errors: 0,
    firstError: null,
    elapsedMs: 5000,
    throughput,
    p50: 1,
    p99: 2,
    mean: 1,
  };
}
