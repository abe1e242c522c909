import assert from "node:assert/strict";
import { cpuRows, formatCpu } from "./cpu_report.ts";
import type { Measurement } from "./report.ts";
import { SCENARIOS, type Target } from "./scenarios.ts";
import { resultAt } from "./testing.ts";

const measured = (
  scenario: string,
  target: Target,
  throughput: number,
  cpuUsPerRequest?: number,
): Measurement => ({
  scenario,
  target,
  concurrency: 32,
  result: resultAt(throughput),
  cpuUsPerRequest,
});

Deno.test("cpuRows: throughput and CPU against the proxy of the same scenario", () => {
  const rows = cpuRows(SCENARIOS, [
    measured("chat-json", "direct", 40_000, 20),
    measured("chat-json", "proxy", 10_000, 50),
    measured("chat-json", "gatehouse", 8_000, 62.5),
    measured("chat-json", "policied", 6_000),
  ]);
  assert.equal(rows.length, 3);
  const gatehouse = rows.find((r) => r.target === "gatehouse")!;
  assert.equal(gatehouse.throughputShare, 0.8);
  assert.equal(gatehouse.cpuShare, 0.8);
  assert.equal(gatehouse.perCore, 16_000);
  assert.equal(rows.find((r) => r.target === "direct")!.cpuShare, 2.5);
});

Deno.test("cpuRows: a translated scenario falls back to its baseline's proxy", () => {
  const translated = SCENARIOS.find((s) => s.baseline !== undefined)!;
  const rows = cpuRows(SCENARIOS, [
    measured(translated.baseline!, "proxy", 10_000, 50),
    measured(translated.id, "gatehouse", 5_000, 100),
    measured("no-proxy-here", "gatehouse", 5_000, 100),
  ]);
  assert.equal(rows[1]!.cpuShare, 0.5);
  assert.equal(rows[1]!.throughputShare, 0.5);
  assert.ok(Number.isNaN(rows[2]!.cpuShare));
  const text = formatCpu(rows, (id) => id);
  assert.match(text, /CPU µs\/req/);
  assert.match(text, /no-proxy-here\s+gatehouse\s+32\s+5000\s+—\s+100\.0\s+—\s+10000/);
});
