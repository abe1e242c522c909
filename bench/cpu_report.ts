/**
 * The CPU side of the report: each measurement against the minimal proxy measured in the same
 * turns, by throughput and by CPU time of the serving process per request. The CPU figure does
 * not depend on how the machine's shared cores were split between the load generator, the
 * upstream and the target, so it is the fairest comparison on a small box.
 * @module
 */
import { perCoreRate } from "./cpu_time.ts";
import { findMeasurement, type Measurement, table } from "./report.ts";
import type { Scenario, Target } from "./scenarios.ts";

/** One measurement set against the proxy's at the same scenario and concurrency. */
export interface CpuRow {
  scenario: string;
  target: Target;
  concurrency: number;
  throughput: number;
  /** Throughput over the proxy's (NaN without a proxy measurement). */
  throughputShare: number;
  /** CPU µs of the serving process per request. */
  cpuUsPerRequest: number;
  /** The proxy's CPU µs per request over this target's: the throughput share each would have
   * with a core to itself (NaN without a proxy measurement). */
  cpuShare: number;
  /** Requests per second one core could serve at this CPU cost. */
  perCore: number;
}

/** A row per measurement that has a CPU time, in the order of `all`. A translated scenario is
 * held against the proxy on its own upstream call (its baseline's), as the checks do. */
export function cpuRows(scenarios: readonly Scenario[], all: Measurement[]): CpuRow[] {
  const rows: CpuRow[] = [];
  for (const m of all) {
    if (m.cpuUsPerRequest === undefined) continue;
    const baseline = scenarios.find((s) => s.id === m.scenario)?.baseline ?? m.scenario;
    const proxy = findMeasurement(all, m.scenario, "proxy", m.concurrency) ??
      findMeasurement(all, baseline, "proxy", m.concurrency);
    rows.push({
      scenario: m.scenario,
      target: m.target,
      concurrency: m.concurrency,
      throughput: m.result.throughput,
      throughputShare: proxy ? m.result.throughput / proxy.result.throughput : NaN,
      cpuUsPerRequest: m.cpuUsPerRequest,
      cpuShare: proxy?.cpuUsPerRequest === undefined
        ? NaN
        : proxy.cpuUsPerRequest / m.cpuUsPerRequest,
      perCore: perCoreRate(m.cpuUsPerRequest),
    });
  }
  return rows;
}

const fixed = (value: number, digits: number) =>
  Number.isFinite(value) ? value.toFixed(digits) : "—";

/** The printed CPU table, with its heading; `label` names a scenario id. */
export function formatCpu(rows: readonly CpuRow[], label: (id: string) => string): string {
  return [
    "Against the minimal proxy measured in the same turns: throughput share, and the CPU time " +
    "of the serving process (all its threads) per request. CPU share = the proxy's µs over the " +
    "target's (the throughput share each would have with a core to itself); per core = 1e6 / " +
    "µs, what one core could serve",
    table(
      ["scenario", "target", "c", "req/s", "× proxy", "CPU µs/req", "CPU share", "req/s per core"],
      rows.map((r) => [
        label(r.scenario),
        r.target,
        String(r.concurrency),
        r.throughput.toFixed(0),
        fixed(r.throughputShare, 2),
        fixed(r.cpuUsPerRequest, 1),
        fixed(r.cpuShare, 2),
        fixed(r.perCore, 0),
      ]),
      2,
    ),
  ].join("\n");
}
