import assert from "node:assert/strict";
import { percentile, summarizeLoads } from "./load.ts";

Deno.test("percentile picks by nearest rank", () => {
  const values = Float64Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile(values, 99), 99);
  assert.equal(percentile(values, 100), 100);
  assert.equal(percentile(values, 0), 1);
  assert.equal(percentile([1, 2, 3, 4], 50), 2);
  assert.equal(percentile([1, 2, 3, 4], 51), 3);
});

Deno.test("percentile of one value is that value", () => {
  assert.equal(percentile([7.5], 50), 7.5);
  assert.equal(percentile([7.5], 99), 7.5);
});

Deno.test("percentile of nothing is NaN; a percentile outside 0..100 throws", () => {
  assert.ok(Number.isNaN(percentile([], 50)));
  assert.throws(() => percentile([1], 101), RangeError);
  assert.throws(() => percentile([1], -1), RangeError);
});

Deno.test("summarizeLoads pools the slices' latencies and their run time", () => {
  const result = summarizeLoads([
    { latencies: Float64Array.of(1, 3), errors: 0, firstError: null, elapsedMs: 500 },
    { latencies: Float64Array.of(2, 4), errors: 1, firstError: "HTTP 502: x", elapsedMs: 500 },
  ]);
  assert.equal(result.requests, 4);
  assert.equal(result.errors, 1);
  assert.equal(result.firstError, "HTTP 502: x");
  assert.equal(result.throughput, 4);
  assert.equal(result.p50, 2);
  assert.equal(result.mean, 2.5);
});
