/**
 * Turns measurements into the printed tables, the added-latency figures and the target checks.
 * @module
 */
import type { LoadResult } from "./load.ts";
import type { Scenario, Target } from "./scenarios.ts";

/** One load run of one scenario against one target. */
export interface Measurement {
  scenario: string;
  target: Target;
  concurrency: number;
  /** The round it was measured in (1, 2, …); absent when every round's slices are pooled. */
  round?: number;
  result: LoadResult;
  /** CPU time of the process serving the target (all its threads), ms, summed over the
   * measurement's slices (`cpu_time.ts`); absent where it was not read. */
  cpuMs?: number;
  /** `cpuMs` per completed request, in µs: unlike throughput, independent of how the shared
   * cores were split between the load generator, the upstream and the target. */
  cpuUsPerRequest?: number;
  /** Each slice's throughput, req/s, in the order run: the k-th slice of every target of a
   * scenario ran in the same turn (`measure.ts`), so two targets' k-th slices compare without
   * the drifts of a shared box that are slower than a turn. Absent where slices were not kept. */
  sliceThroughputs?: number[];
}

/** Latency a hop adds over calling the upstream directly, at concurrency 1. */
export interface AddedLatency {
  scenario: string;
  target: Target;
  /** The scenario whose direct run is subtracted. */
  versus: string;
  p50: number;
  p99: number;
}

/** One target check. */
export interface Check {
  name: string;
  measured: string;
  target: string;
  pass: boolean;
}

/** The targets the lead set. */
export const TARGETS = {
  /** gatehouse's p50 at c=1 minus the minimal proxy's, ms (issue #19). */
  addedOverProxyP50Ms: 0.05,
  passthroughShare: 0.8,
  translatedShare: 0.6,
  /** Every policy, metrics and a JSON log line per request (the `policied` target). */
  everythingOnShare: 0.7,
} as const;

/** The concurrencies every scenario runs at; the first is the latency one, the last the
 * throughput one. */
export const CONCURRENCIES = [1, 32] as const;
const LOW = CONCURRENCIES[0];
const HIGH = CONCURRENCIES[CONCURRENCIES.length - 1]!;

/** The measurement of `target` in `scenario` at `concurrency`, if there is one. */
export function findMeasurement(
  all: Measurement[],
  scenario: string,
  target: Target,
  concurrency: number,
): Measurement | undefined {
  return all.find((m) =>
    m.scenario === scenario && m.target === target && m.concurrency === concurrency
  );
}

function find(
  all: Measurement[],
  scenario: string,
  target: Target,
  concurrency: number,
): LoadResult | undefined {
  return findMeasurement(all, scenario, target, concurrency)?.result;
}

/** ` · CPU 75.0 vs 52.0 µs/req (proxy/gatehouse 0.69)`, the proxy's as measured in `proxyScenario`,
 * when both CPU times were read. */
function cpuNote(
  all: Measurement[],
  scenario: Scenario,
  target: Target,
  proxyScenario: string,
): string {
  const own = findMeasurement(all, scenario.id, target, HIGH)?.cpuUsPerRequest;
  const proxy = findMeasurement(all, proxyScenario, "proxy", HIGH)?.cpuUsPerRequest;
  if (own === undefined || proxy === undefined) return "";
  return ` · CPU ${own.toFixed(1)} vs proxy ${proxy.toFixed(1)} µs/req (proxy/${target} ` +
    `${(proxy / own).toFixed(2)})`;
}

/** The ratio of `own`'s throughput to `base`'s slice by slice (slices run in the same turns):
 * lowest, median and highest; null unless both kept the same number of slices (two or more). */
export function sliceRatios(
  own: Measurement | undefined,
  base: Measurement | undefined,
): { low: number; median: number; high: number } | null {
  const a = own?.sliceThroughputs;
  const b = base?.sliceThroughputs;
  if (!a || !b || a.length !== b.length || a.length < 2) return null;
  const ratios = a.map((value, i) => value / b[i]!).filter(Number.isFinite).sort((x, y) => x - y);
  if (ratios.length < 2) return null;
  const mid = ratios.length >> 1;
  const median = ratios.length % 2 === 1 ? ratios[mid]! : (ratios[mid - 1]! + ratios[mid]!) / 2;
  return { low: ratios[0]!, median, high: ratios[ratios.length - 1]! };
}

/** ` · slices 55.0–83.1%, median 70.2% (the target inside their spread)`: how far single slices
 * of one run strayed, so a reader can tell a miss from the box's noise; "" without slices. */
function spreadNote(
  all: Measurement[],
  scenario: Scenario,
  target: Target,
  proxyScenario: string,
  goal: number,
): string {
  const spread = sliceRatios(
    findMeasurement(all, scenario.id, target, HIGH),
    findMeasurement(all, proxyScenario, "proxy", HIGH),
  );
  if (spread === null) return "";
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  const inside = spread.low < goal && goal <= spread.high;
  return ` · slices ${pct(spread.low)}–${pct(spread.high)}, median ${pct(spread.median)}` +
    (inside ? " (the target inside their spread)" : "");
}

/** Added latency of the proxy and gatehouse runs over their direct baseline. */
export function addedLatencies(scenarios: Scenario[], all: Measurement[]): AddedLatency[] {
  const added: AddedLatency[] = [];
  for (const scenario of scenarios) {
    const versus = scenario.baseline ?? scenario.id;
    const direct = find(all, versus, "direct", LOW);
    if (!direct) continue;
    for (const target of scenario.targets) {
      if (target === "direct") continue;
      const run = find(all, scenario.id, target, LOW);
      if (!run) continue;
      added.push({
        scenario: scenario.id,
        target,
        versus,
        p50: run.p50 - direct.p50,
        p99: run.p99 - direct.p99,
      });
    }
  }
  return added;
}

/** The PASS/MISS checks: added p50, passthrough and translated throughput shares. */
export function checks(scenarios: Scenario[], all: Measurement[]): Check[] {
  const out: Check[] = [];
  const latencies = addedLatencies(scenarios, all);
  for (const added of latencies) {
    const scenario = scenarios.find((s) => s.id === added.scenario);
    if (added.target !== "gatehouse" || scenario?.kind !== "passthrough") continue;
    // Relative to the least proxy on the same box, in the same run (issue #19).
    const proxy = latencies.find((a) => a.scenario === added.scenario && a.target === "proxy");
    if (!proxy) continue;
    const over = added.p50 - proxy.p50;
    out.push({
      name: `added p50 over the minimal proxy at c=${LOW}, ${scenario.label}`,
      measured: `${over >= 0 ? "+" : ""}${over.toFixed(3)} ms (gatehouse adds ` +
        `${added.p50.toFixed(3)} ms to direct, the proxy ${proxy.p50.toFixed(3)} ms)`,
      target: `≤ ${TARGETS.addedOverProxyP50Ms} ms`,
      pass: over <= TARGETS.addedOverProxyP50Ms,
    });
  }
  for (const scenario of scenarios) {
    const gateway = find(all, scenario.id, "gatehouse", HIGH);
    const proxyScenario = find(all, scenario.id, "proxy", HIGH)
      ? scenario.id
      : scenario.baseline ?? scenario.id;
    const proxy = find(all, proxyScenario, "proxy", HIGH);
    if (!gateway || !proxy) continue;
    const share = scenario.kind === "passthrough"
      ? TARGETS.passthroughShare
      : TARGETS.translatedShare;
    const ratio = gateway.throughput / proxy.throughput;
    out.push({
      name: `${scenario.kind} throughput at c=${HIGH}, ${scenario.label}` +
        (scenario.baseline ? ` (vs proxy ${scenario.baseline})` : ""),
      measured:
        `${(ratio * 100).toFixed(1)}% (${gateway.throughput.toFixed(0)} / ${
          proxy.throughput.toFixed(0)
        } req/s)${cpuNote(all, scenario, "gatehouse", proxyScenario)}` +
        spreadNote(all, scenario, "gatehouse", proxyScenario, share),
      target: `≥ ${share * 100}% of proxy`,
      pass: ratio >= share,
    });
    const everything = find(all, scenario.id, "policied", HIGH);
    if (everything && scenario.kind === "passthrough") {
      const ratio = everything.throughput / proxy.throughput;
      out.push({
        name: `everything on (every policy, metrics, JSON logs) at c=${HIGH}, ${scenario.label}`,
        measured:
          `${(ratio * 100).toFixed(1)}% (${everything.throughput.toFixed(0)} / ${
            proxy.throughput.toFixed(0)
          } req/s)${cpuNote(all, scenario, "policied", proxyScenario)}` +
          spreadNote(all, scenario, "policied", proxyScenario, TARGETS.everythingOnShare),
        target: `≥ ${TARGETS.everythingOnShare * 100}% of proxy`,
        pass: ratio >= TARGETS.everythingOnShare,
      });
    }
  }
  return out;
}

/** Lays out rows as a fixed-width table; columns after the first `left` are right-aligned. */
export function table(header: string[], rows: string[][], left = 2): string {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length))
  );
  const line = (cells: string[]) =>
    cells.map((cell, i) => i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))
      .join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join(
    "\n",
  );
}

const ms = (value: number) => Number.isFinite(value) ? value.toFixed(3) : "—";
const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(3)}`;

/** The whole printed report. */
export function formatReport(scenarios: Scenario[], all: Measurement[]): string {
  const label = (id: string) => scenarios.find((s) => s.id === id)?.label ?? id;
  const results = table(
    [
      "scenario",
      "target",
      "c",
      "req/s",
      "p50 ms",
      "p99 ms",
      "mean ms",
      "CPU µs/req",
      "requests",
      "errors",
    ],
    all.map((m) => [
      label(m.scenario),
      m.target,
      String(m.concurrency),
      m.result.throughput.toFixed(0),
      ms(m.result.p50),
      ms(m.result.p99),
      ms(m.result.mean),
      m.cpuUsPerRequest === undefined ? "—" : m.cpuUsPerRequest.toFixed(1),
      String(m.result.requests),
      String(m.result.errors),
    ]),
  );
  const added = table(
    ["scenario", "target", "versus direct", "added p50 ms", "added p99 ms"],
    addedLatencies(scenarios, all).map((a) => [
      label(a.scenario),
      a.target,
      label(a.versus),
      signed(a.p50),
      signed(a.p99),
    ]),
    3,
  );
  const checkLines = checks(scenarios, all).map((c) =>
    `${c.pass ? "PASS" : "MISS"}  ${c.name}: ${c.measured} (target ${c.target})`
  );
  const errors = all.filter((m) => m.result.firstError !== null).map((m) =>
    `  ${label(m.scenario)} / ${m.target} / c=${m.concurrency}: ${m.result.firstError}`
  );
  return [
    "Results (latency = request start to last body byte)",
    results,
    "",
    `Added latency at c=${LOW} (target or proxy minus direct)`,
    added,
    "",
    "Checks",
    ...checkLines,
    ...(errors.length > 0 ? ["", "First error of each run with errors:", ...errors] : []),
  ].join("\n");
}
