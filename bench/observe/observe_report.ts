/**
 * The observability-cost bench's table: per scenario, each configuration's median c=1 p50 (and
 * what it adds over "off") and median c=32 throughput (and its share of "off"'s).
 * @module
 */
import type { WrkResult } from "../scale/wrk.ts";
import type { ObserveConfig } from "./observe_settings.ts";

/** One measured wrk run. */
export interface ObserveRun {
  round: number;
  config: ObserveConfig["id"];
  scenario: string;
  connections: number;
  wrk: WrkResult;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The median of `pick` over the runs of one cell; NaN when there is none. */
function cell(
  runs: readonly ObserveRun[],
  config: string,
  scenario: string,
  connections: number,
  pick: (wrk: WrkResult) => number,
): number {
  const values = runs
    .filter((r) => r.config === config && r.scenario === scenario && r.connections === connections)
    .map((r) => pick(r.wrk));
  return values.length === 0 ? NaN : median(values);
}

/** The table, one row per scenario and configuration. */
export function formatObserveRuns(configs: readonly ObserveConfig[], runs: readonly ObserveRun[]) {
  const scenarios = [...new Set(runs.map((r) => r.scenario))];
  const lines = [
    "| scenario | configuration | c=1 p50 ms | added vs off | c=32 req/s | share of off |",
    "|---|---|---|---|---|---|",
  ];
  for (const scenario of scenarios) {
    const offP50 = cell(runs, "off", scenario, 1, (w) => w.p50);
    const offRps = cell(runs, "off", scenario, 32, (w) => w.rps);
    for (const config of configs) {
      const p50 = cell(runs, config.id, scenario, 1, (w) => w.p50);
      const rps = cell(runs, config.id, scenario, 32, (w) => w.rps);
      const added = config.id === "off"
        ? ""
        : `${(p50 - offP50) >= 0 ? "+" : ""}${(p50 - offP50).toFixed(3)} ms`;
      const share = config.id === "off" ? "" : (rps / offRps).toFixed(2);
      lines.push(
        `| ${scenario} | ${config.id} | ${p50.toFixed(3)} | ${added} | ${
          rps.toFixed(0)
        } | ${share} |`,
      );
    }
  }
  return `Medians over the rounds (wrk; c=1 one thread, c=32 two):\n${lines.join("\n")}`;
}

/** The sum of `gatehouse_requests_total` over its series in an exposition text. */
export function requestsCounted(exposition: string): number {
  let total = 0;
  for (const line of exposition.split("\n")) {
    if (!line.startsWith("gatehouse_requests_total")) continue;
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (Number.isFinite(value)) total += value;
  }
  return total;
}
