import assert from "node:assert/strict";
import { poolWrk, type WrkSlice } from "./pool_wrk.ts";

/** A slice of `requests` in `seconds` whose quantiles all sit at `latencyMs`. */
function slice(requests: number, seconds: number, latencyMs: number, non2xx = 0): WrkSlice {
  return {
    wrk: {
      requests,
      seconds,
      rps: requests / seconds,
      p50: latencyMs,
      p75: latencyMs,
      p90: latencyMs,
      p99: latencyMs,
      non2xx,
      socketErrors: { connect: 0, read: 1, write: 0, timeout: 2 },
    },
    samples: {
      latencies: new Float64Array(1000).fill(latencyMs),
      requests,
      errors: non2xx,
      firstError: null,
      elapsedMs: seconds * 1000,
    },
  };
}

Deno.test("poolWrk: counts and time summed, req/s over the summed time", () => {
  const pooled = poolWrk([slice(10_000, 2, 1), slice(6_000, 2, 3, 4)]);
  assert.equal(pooled.requests, 16_000);
  assert.equal(pooled.seconds, 4);
  assert.equal(pooled.rps, 4_000);
  assert.equal(pooled.non2xx, 4);
  assert.deepEqual(pooled.socketErrors, { connect: 0, read: 2, write: 0, timeout: 4 });
});

Deno.test("poolWrk: percentiles weigh each slice's quantiles by its requests", () => {
  // 10,000 requests at 1 ms and 6,000 at 3 ms: the median is 1 ms, p75 and p99 3 ms.
  const pooled = poolWrk([slice(10_000, 2, 1), slice(6_000, 2, 3)]);
  assert.equal(pooled.p50, 1);
  assert.equal(pooled.p75, 3);
  assert.equal(pooled.p99, 3);
  // 2,000 at 1 ms and 6,000 at 3 ms: now the median is 3 ms.
  assert.equal(poolWrk([slice(2_000, 2, 1), slice(6_000, 2, 3)]).p50, 3);
  assert.throws(() => poolWrk([]), /no slices/);
});
