import assert from "node:assert/strict";
import {
  cpuUsPerRequest,
  parseStatCpuMs,
  perCoreRate,
  processCpuMs,
  withCpuTime,
} from "./cpu_time.ts";

const STAT = "8861 (deno) S 7713 8861 7714 0 -1 4194560 3002 42569 0 2 1234 56 25 7 20 0 " +
  "9 0 27986 5124096 1012 18446744073709551615";

Deno.test("parseStatCpuMs: utime + stime in ms at 100 ticks a second", () => {
  assert.equal(parseStatCpuMs(STAT), 12_900);
});

Deno.test("parseStatCpuMs: a command name with spaces and parentheses", () => {
  const odd = STAT.replace("(deno)", "(my (odd) name)");
  assert.equal(parseStatCpuMs(odd), 12_900);
  assert.throws(() => parseStatCpuMs("no fields"), /not a \/proc/);
});

Deno.test("cpuUsPerRequest and perCoreRate", () => {
  assert.equal(cpuUsPerRequest(50, 1000), 50);
  assert.ok(Number.isNaN(cpuUsPerRequest(50, 0)));
  assert.equal(perCoreRate(50), 20_000);
  assert.ok(Number.isNaN(perCoreRate(NaN)));
});

/** Keeps this thread busy for about `ms` of wall time. */
function spin(ms: number): number {
  const until = performance.now() + ms;
  let spins = 0;
  while (performance.now() < until) spins++;
  return spins;
}

Deno.test("processCpuMs: this process's CPU time grows, in 10 ms ticks, while it works", async () => {
  const before = await processCpuMs(Deno.pid);
  let after = before;
  // Not timed: spin until the reading has moved (a busy machine only makes it take longer).
  for (let i = 0; i < 500 && after - before < 50; i++) {
    spin(20);
    after = await processCpuMs(Deno.pid);
  }
  assert.ok(after - before >= 50, `${before} → ${after}`);
  assert.equal(Math.round(after) % 10, 0);
});

Deno.test("withCpuTime: the work's value and the CPU time used meanwhile", async () => {
  const { value, cpuMs } = await withCpuTime(Deno.pid, () => Promise.resolve(spin(30)), 0);
  assert.ok(value > 0);
  assert.ok(cpuMs >= 0 && Math.round(cpuMs) % 10 === 0, String(cpuMs));
});
