/**
 * The scale bench's judgements: the check against the minimal proxy (issue #19: with Postgres +
 * Redis and every policy, ≥ 0.60 of the proxy's throughput at c=32), and 2 workers against 1 on
 * the same store, with the per-core cost estimated from the CPU time per request.
 * @module
 */
import type { Check } from "../report.ts";
import type { ScaleRun } from "./run_config.ts";
import type { ScaleConfig } from "./scale_settings.ts";

/** The share of the proxy's throughput the Postgres + Redis configurations (every policy) are
 * held to. */
export const POSTGRES_REDIS_SHARE = 0.6;

/** `CPU 120.0 vs proxy 80.0 µs/req (proxy/gatehouse 0.67)`. */
function cpuVersusProxy(run: ScaleRun): string {
  const own = run.cpu.usPerRequest;
  const proxy = run.proxy.cpu.usPerRequest;
  return `CPU ${own.toFixed(1)} vs proxy ${proxy.toFixed(1)} µs/req ` +
    `(proxy/gatehouse ${(proxy / own).toFixed(2)})`;
}

/** A check per measured run of a Postgres + Redis configuration with every policy. */
export function scaleChecks(configs: readonly ScaleConfig[], runs: readonly ScaleRun[]): Check[] {
  const checks: Check[] = [];
  for (const run of runs) {
    const config = configs.find((c) => c.id === run.config);
    if (config?.store !== "postgres" || !config.redis || !config.policied) continue;
    const share = run.wrk.rps / run.proxy.wrk.rps;
    checks.push({
      name: `Postgres + Redis, all policies ≥ ${POSTGRES_REDIS_SHARE.toFixed(2)} of the proxy ` +
        `at c=32: ${config.id}. ${config.label}, ${run.scenario}`,
      measured: `${share.toFixed(2)} of the proxy (${run.wrk.rps.toFixed(0)} / ` +
        `${run.proxy.wrk.rps.toFixed(0)} req/s) · ${cpuVersusProxy(run)}`,
      target: `≥ ${POSTGRES_REDIS_SHARE.toFixed(2)} of the proxy`,
      pass: share >= POSTGRES_REDIS_SHARE,
    });
  }
  return checks;
}

/** The printed check lines, as `../report.ts` prints its checks. */
export function formatChecks(checks: readonly Check[]): string {
  return checks.length === 0
    ? "(no Postgres + Redis configuration was measured)"
    : checks.map((c) =>
      `${c.pass ? "PASS" : "MISS"}  ${c.name}: ${c.measured} (target ${c.target})`
    )
      .join("\n");
}

/** One worker count's figures in a comparison. */
export interface WorkerFigures {
  config: ScaleConfig["id"];
  workers: number;
  rps: number;
  /** Share of the proxy's throughput in the same turns. */
  proxyShare: number;
  cpuUsPerRequest: number;
  /** 1e6 / CPU µs per request: what one core of gateway CPU serves. */
  perCore: number;
  /** Cores the gateway process kept busy (all worker threads). */
  cores: number;
  /** Cores the fake upstream kept busy meanwhile. */
  upstreamCores: number;
}

/** 1 worker against 2 on the same store and policies, one scenario. */
export interface WorkerComparison {
  store: string;
  scenario: string;
  one: WorkerFigures;
  two: WorkerFigures;
  /** Throughput of 2 workers over 1. */
  throughputRatio: number;
}

function figures(config: ScaleConfig, run: ScaleRun): WorkerFigures {
  return {
    config: config.id,
    workers: config.workers,
    rps: run.wrk.rps,
    proxyShare: run.wrk.rps / run.proxy.wrk.rps,
    cpuUsPerRequest: run.cpu.usPerRequest,
    perCore: run.cpu.perCore,
    cores: run.cpu.cores,
    upstreamCores: run.upstreamCores,
  };
}

/** Each scenario measured with 1 and with 2 workers on the same store and policies. */
export function workerComparisons(
  configs: readonly ScaleConfig[],
  runs: readonly ScaleRun[],
): WorkerComparison[] {
  const out: WorkerComparison[] = [];
  for (const one of configs.filter((c) => c.workers === 1)) {
    const two = configs.find((c) =>
      c.workers === 2 && c.store === one.store && c.redis === one.redis &&
      c.policied === one.policied
    );
    if (two === undefined) continue;
    for (const run of runs.filter((r) => r.config === one.id)) {
      const other = runs.find((r) => r.config === two.id && r.scenario === run.scenario);
      if (other === undefined) continue;
      out.push({
        store: one.label.replace(/^1 worker, /, ""),
        scenario: run.scenario,
        one: figures(one, run),
        two: figures(two, other),
        throughputRatio: other.wrk.rps / run.wrk.rps,
      });
    }
  }
  return out;
}

const n0 = (value: number) => Number.isFinite(value) ? value.toFixed(0) : "—";
const n1 = (value: number) => Number.isFinite(value) ? value.toFixed(1) : "—";
const n2 = (value: number) => Number.isFinite(value) ? value.toFixed(2) : "—";

/** The printed comparison: per store and scenario, then what it means on this box. */
export function formatWorkers(
  comparisons: readonly WorkerComparison[],
  cpus: number,
  wrkThreads: number,
): string {
  if (comparisons.length === 0) return "(1 and 2 workers were not both measured on one store)";
  const lines = comparisons.map((c) =>
    `${c.store}, ${c.scenario}: 2 workers serve ${n2(c.throughputRatio)}× the throughput of 1 ` +
    `(${n0(c.one.rps)} → ${n0(c.two.rps)} req/s; ${n2(c.one.proxyShare)} → ` +
    `${n2(c.two.proxyShare)} of the proxy). CPU ${n1(c.one.cpuUsPerRequest)} → ` +
    `${n1(c.two.cpuUsPerRequest)} µs/req, so one core of gateway CPU serves ` +
    `${n0(c.one.perCore)} req/s with 1 worker, ${n0(c.two.perCore)} with 2. The gateway kept ` +
    `${n2(c.one.cores)} → ${n2(c.two.cores)} cores busy, the fake upstream ` +
    `${n2(c.one.upstreamCores)} → ${n2(c.two.upstreamCores)}.`
  );
  const best = Math.max(...comparisons.map((c) => c.one.perCore));
  return [
    ...lines,
    `What 2 workers against 1 means on this box: ${cpus} CPUs, shared by the gateway, wrk ` +
    `(${wrkThreads} threads, itself busy for every request) and the fake upstream. One worker ` +
    `runs its requests on one JavaScript thread, so it can keep about one core busy (plus V8's ` +
    `and the runtime's helper threads); a second worker can only have what wrk and the upstream ` +
    `leave of the other. So the 2-worker throughput says how ${cpus} shared cores were split, ` +
    `not how the gateway scales, and a ratio well under 2 is expected here. The CPU time per ` +
    `request (the whole process, every worker thread) does not depend on that split: it is the ` +
    `per-core cost. At 1e6 / CPU µs per request, one core of gateway CPU serves about ` +
    `${
      n0(best)
    } req/s (the cheapest 1-worker run above); a machine that gives the gateway N cores of its own (wrk ` +
    `and the upstream elsewhere) should serve about N times the per-core figure with N workers, ` +
    `less whatever the workers contend on (the store, Redis, the kernel's network stack).`,
  ].join("\n");
}
