import assert from "node:assert/strict";
import { checks, type Measurement, sliceRatios } from "./report.ts";
import { SCENARIOS, type Target } from "./scenarios.ts";
import { resultAt } from "./testing.ts";

const measured = (
  target: Target,
  throughput: number,
  sliceThroughputs?: number[],
  scenario = "chat-json",
): Measurement => ({
  scenario,
  target,
  concurrency: 32,
  result: resultAt(throughput),
  sliceThroughputs,
});

Deno.test("sliceRatios: lowest, median and highest of the slice-by-slice ratios", () => {
  const own = measured("gatehouse", 0, [80, 60, 90, 70]);
  const proxy = measured("proxy", 0, [100, 100, 100, 100]);
  assert.deepEqual(sliceRatios(own, proxy), { low: 0.6, median: 0.75, high: 0.9 });
  const odd = sliceRatios(
    measured("gatehouse", 0, [50, 90, 70]),
    measured("proxy", 0, [100, 100, 100]),
  );
  assert.equal(odd?.median, 0.7);
});

Deno.test("sliceRatios: null without slices on both sides, or with unmatched slices", () => {
  const proxy = measured("proxy", 0, [100, 100]);
  assert.equal(sliceRatios(measured("gatehouse", 0), proxy), null);
  assert.equal(sliceRatios(measured("gatehouse", 0, [80, 80, 80]), proxy), null);
  assert.equal(sliceRatios(measured("gatehouse", 0, [80]), measured("proxy", 0, [100])), null);
  assert.equal(sliceRatios(undefined, proxy), null);
});

Deno.test("checks: a throughput check carries its slices' spread and says when the target is inside it", () => {
  const scenario = SCENARIOS.filter((s) => s.id === "chat-json");
  const all = [
    measured("proxy", 1000, [1000, 1000, 1000, 1000, 1000]),
    measured("gatehouse", 780, [700, 760, 780, 800, 920]),
    measured("policied", 500, [450, 480, 500, 520, 550]),
  ];
  const [passthrough, everything] = checks(scenario, all);
  assert.equal(passthrough?.pass, false);
  assert.match(
    passthrough!.measured,
    /slices 70\.0%–92\.0%, median 78\.0% \(the target inside their spread\)$/,
  );
  assert.equal(everything?.pass, false);
  assert.match(everything!.measured, /slices 45\.0%–55\.0%, median 50\.0%$/);
});

Deno.test("checks: no spread note when the slices were not kept", () => {
  const scenario = SCENARIOS.filter((s) => s.id === "chat-json");
  const [check] = checks(scenario, [measured("proxy", 1000), measured("gatehouse", 900)]);
  assert.equal(check?.pass, true);
  assert.doesNotMatch(check!.measured, /slices/);
});
