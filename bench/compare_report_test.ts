import assert from "node:assert/strict";
import { formatComparison, pool, type Round } from "./compare_report.ts";

Deno.test("pool: CPU µs per request over every request, requests per second over every second", () => {
  const pooled = pool([
    { requests: 1000, cpuMs: 100, seconds: 1 },
    { requests: 3000, cpuMs: 200, seconds: 2 },
  ]);
  assert.deepEqual(pooled, { requests: 4000, cpuUsPerRequest: 75, requestsPerSecond: 4000 / 3 });
  assert.ok(Number.isNaN(pool([]).cpuUsPerRequest));
});

Deno.test("formatComparison: each round, the pooled line, and this checkout's ratios", () => {
  const rounds: Round[] = [
    {
      base: { requests: 2000, cpuMs: 240, seconds: 2 },
      head: { requests: 2200, cpuMs: 220, seconds: 2 },
    },
    {
      base: { requests: 1800, cpuMs: 240, seconds: 2 },
      head: { requests: 2000, cpuMs: 230, seconds: 2 },
    },
  ];
  const text = formatComparison("8af9a1e", rounds);
  assert.match(text, /^round +8af9a1e req\/s +CPU µs\/req +this req\/s +CPU µs\/req/);
  assert.match(text, /\n1 +1000 +120\.0 +1100 +100\.0\n/);
  assert.match(text, /\npooled +950 +126\.3 +1050 +107\.1\n/);
  // 450 ms / 4,200 requests against 480 ms / 3,800.
  assert.match(text, /CPU per request × 0\.848, requests served × 1\.105/);
});
