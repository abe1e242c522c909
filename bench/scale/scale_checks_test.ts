import assert from "node:assert/strict";
import type { ScaleRun } from "./run_config.ts";
import {
  formatChecks,
  formatWorkers,
  POSTGRES_REDIS_SHARE,
  scaleChecks,
  workerComparisons,
} from "./scale_checks.ts";
import { formatTurns } from "./scale_report.ts";
import { SCALE_CONFIGS } from "./scale_settings.ts";
import { cpuUse, type TargetRun } from "./turns.ts";
import type { WrkResult } from "./wrk.ts";

/** A target run of `rps` for 10 s at `us` CPU µs per request. */
function target(rps: number, us: number): TargetRun {
  const wrk: WrkResult = {
    requests: rps * 10,
    seconds: 10,
    rps,
    p50: 1,
    p75: 2,
    p90: 3,
    p99: 4,
    non2xx: 0,
    socketErrors: { connect: 0, read: 0, write: 0, timeout: 0 },
  };
  return { wrk, cpu: cpuUse((us * rps * 10) / 1000, rps * 10, 10), upstreamCores: 0.3 };
}

function run(config: ScaleRun["config"], scenario: string, rps: number, us: number): ScaleRun {
  const gateway = target(rps, us);
  return {
    config,
    scenario,
    ...gateway,
    direct: target(40_000, 25),
    proxy: target(10_000, 80),
    redis: null,
    loadBefore: null,
  };
}

const RUNS = [
  run("a", "chat-json", 7_000, 120),
  run("b", "chat-json", 8_400, 130),
  run("c", "chat-json", 5_000, 200),
  run("d", "chat-json", 6_500, 210),
];

Deno.test("cpuUse: µs per request, per-core rate and cores busy", () => {
  const use = cpuUse(1_200, 10_000, 2);
  assert.equal(use.usPerRequest, 120);
  assert.equal(Math.round(use.perCore), 8_333);
  assert.equal(use.cores, 0.6);
});

Deno.test("scaleChecks: the Postgres + Redis configurations against the proxy's throughput", () => {
  const checks = scaleChecks(SCALE_CONFIGS, RUNS);
  assert.equal(POSTGRES_REDIS_SHARE, 0.6);
  assert.deepEqual(checks.map((c) => c.pass), [false, true]);
  assert.match(
    checks[0]!.name,
    /^Postgres \+ Redis, all policies ≥ 0\.60 of the proxy at c=32: c\./,
  );
  assert.match(checks[0]!.measured, /^0\.50 of the proxy \(5000 \/ 10000 req\/s\)/);
  assert.match(checks[1]!.measured, /CPU 210\.0 vs proxy 80\.0 µs\/req \(proxy\/gatehouse 0\.38\)/);
  assert.match(formatChecks(checks), /^MISS {2}Postgres.*\nPASS {2}Postgres/);
  assert.match(formatChecks([]), /no Postgres \+ Redis/);
});

Deno.test("workerComparisons: 1 against 2 workers per store, with the per-core cost", () => {
  const comparisons = workerComparisons(SCALE_CONFIGS, RUNS);
  assert.deepEqual(comparisons.map((c) => [c.store, c.one.config, c.two.config]), [
    ["SQLite, no policy", "a", "b"],
    ["Postgres + Redis, all policies", "c", "d"],
  ]);
  assert.equal(comparisons[0]!.throughputRatio, 1.2);
  assert.equal(Math.round(comparisons[0]!.one.perCore), 8_333);
  assert.equal(comparisons[1]!.two.proxyShare, 0.65);
  const text = formatWorkers(comparisons, 2, 2);
  assert.match(text, /SQLite, no policy, chat-json: 2 workers serve 1\.20× the throughput of 1/);
  assert.match(text, /What 2 workers against 1 means on this box: 2 CPUs/);
  assert.match(text, /about 8333 req\/s/);
  assert.match(formatWorkers([], 2, 2), /not both measured/);
  assert.deepEqual(workerComparisons(SCALE_CONFIGS, RUNS.slice(0, 1)), []);
});

Deno.test("formatTurns: gatehouse, proxy and direct per run, shares of the proxy", () => {
  const text = formatTurns(SCALE_CONFIGS, RUNS.slice(0, 1));
  const lines = text.split("\n");
  assert.equal(lines.length, 5);
  assert.match(
    lines[2]!,
    /^a\. 1 worker, SQLite, no policy\s+chat-json\s+gatehouse\s+7000\s+0\.70/,
  );
  assert.match(lines[2]!, /120\.0\s+0\.67\s+8333\s+0\.84\s+0\.30$/);
  assert.match(lines[3]!, /^\s+proxy\s+10000\s+1\.00/);
  assert.match(lines[4]!, /^\s+direct\s+40000\s+4\.00\s+1\.00\s+4\.00\s+25\.0\s+3\.20\s+40000/);
});

Deno.test("the configurations without Redis are neither checked against its target nor paired with it", () => {
  const runs = [...RUNS, run("e", "chat-json", 5_600, 150), run("f", "chat-json", 5_200, 170)];
  assert.deepEqual(scaleChecks(SCALE_CONFIGS, runs).map((c) => c.name.split(": ")[1]), [
    "c. 1 worker, Postgres + Redis, all policies, chat-json",
    "d. 2 workers, Postgres + Redis, all policies, chat-json",
  ]);
  assert.deepEqual(
    workerComparisons(SCALE_CONFIGS, runs).map((c) => [c.one.config, c.two.config]),
    [
      ["a", "b"],
      ["c", "d"],
    ],
  );
});
