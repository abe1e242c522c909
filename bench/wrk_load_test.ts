import assert from "node:assert/strict";
import { summarizeLoads } from "./load.ts";
import { parseWrkDone, QUANTILES } from "./wrk_load.ts";

const quantiles = (from: number) =>
  Array.from({ length: QUANTILES }, (_, i) => String(from + i)).join(" ");

Deno.test("wrk load: the done hook's counts and quantiles become samples", () => {
  const samples = parseWrkDone(
    `Running 1s test\nGATEHOUSE-WRK 5000 1000000 0 0\nGATEHOUSE-WRK-Q ${quantiles(100)}\n`,
  );
  assert.equal(samples.requests, 5000);
  assert.equal(samples.errors, 0);
  assert.equal(samples.firstError, null);
  assert.equal(samples.elapsedMs, 1000);
  assert.equal(samples.latencies.length, QUANTILES);
  assert.equal(samples.latencies[0], 0.1);
  const result = summarizeLoads([samples, samples]);
  assert.equal(result.requests, 10_000);
  assert.equal(result.throughput, 5000);
  assert.ok(Math.abs(result.p50 - 0.5995) < 0.002, String(result.p50));
});

Deno.test("wrk load: non-2xx answers and socket errors are errors, not requests", () => {
  const samples = parseWrkDone(`GATEHOUSE-WRK 100 1000000 10 2\nGATEHOUSE-WRK-Q ${quantiles(1)}\n`);
  assert.equal(samples.requests, 90);
  assert.equal(samples.errors, 12);
  assert.match(samples.firstError ?? "", /10 non-2xx answers, 2 socket errors/);
  assert.throws(() => parseWrkDone("no summary"), /printed no summary/);
});
