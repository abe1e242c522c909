/**
 * The scale-out bench's printed tables: throughput and latency per configuration and scenario,
 * the same against the minimal proxy and direct with CPU time per request, Redis commands per
 * request, ledger rows per second.
 * @module
 */
import { table } from "../report.ts";
import type { LedgerOutcome } from "./ledger_stores.ts";
import type { ScaleRun } from "./run_config.ts";
import type { ScaleConfig } from "./scale_settings.ts";

const f2 = (value: number) => Number.isFinite(value) ? value.toFixed(2) : "—";
const f1 = (value: number) => Number.isFinite(value) ? value.toFixed(1) : "—";

/** req/s, p50, p99, non-2xx and socket errors per configuration and scenario. */
export function formatRuns(configs: readonly ScaleConfig[], runs: readonly ScaleRun[]): string {
  const label = (id: string) => configs.find((c) => c.id === id)?.label ?? id;
  return table(
    [
      "config",
      "scenario",
      "req/s",
      "p50 ms",
      "p99 ms",
      "requests",
      "non-2xx",
      "socket errors",
      "load before",
    ],
    runs.map((run) => {
      const errors = run.wrk.socketErrors;
      return [
        `${run.config}. ${label(run.config)}`,
        run.scenario,
        run.wrk.rps.toFixed(0),
        f2(run.wrk.p50),
        f2(run.wrk.p99),
        String(run.wrk.requests),
        String(run.wrk.non2xx),
        String(errors.connect + errors.read + errors.write + errors.timeout),
        run.loadBefore === null ? "—" : run.loadBefore.toFixed(2),
      ];
    }),
  );
}

/** Per configuration and scenario, the gateway, the minimal proxy and direct as measured in
 * the same turns: throughput and its share of the proxy's, latency, CPU time per request of the
 * serving process (all its threads) and its share of the proxy's, the per-core rate, and the
 * cores the process and the fake upstream kept busy. */
export function formatTurns(configs: readonly ScaleConfig[], runs: readonly ScaleRun[]): string {
  const rows: string[][] = [];
  for (const run of runs) {
    const label = configs.find((c) => c.id === run.config)?.label ?? run.config;
    const targets = [
      { name: "gatehouse", wrk: run.wrk, cpu: run.cpu, upstreamCores: run.upstreamCores },
      { name: "proxy", ...run.proxy },
      { name: "direct", ...run.direct },
    ];
    for (const [i, target] of targets.entries()) {
      rows.push([
        i === 0 ? `${run.config}. ${label}` : "",
        i === 0 ? run.scenario : "",
        target.name,
        target.wrk.rps.toFixed(0),
        f2(target.wrk.rps / run.proxy.wrk.rps),
        f2(target.wrk.p50),
        f2(target.wrk.p99),
        f1(target.cpu.usPerRequest),
        f2(run.proxy.cpu.usPerRequest / target.cpu.usPerRequest),
        Number.isFinite(target.cpu.perCore) ? target.cpu.perCore.toFixed(0) : "—",
        f2(target.cpu.cores),
        f2(target.upstreamCores),
      ]);
    }
  }
  return table(
    [
      "config",
      "scenario",
      "target",
      "req/s",
      "× proxy",
      "p50 ms",
      "p99 ms",
      "CPU µs/req",
      "CPU share",
      "req/s per core",
      "cores",
      "upstream cores",
    ],
    rows,
    3,
  );
}

/** Redis commands per request of each run that used Redis: round trips, commands executed, and
 * each command. */
export function formatRedis(runs: readonly ScaleRun[]): string {
  const rows: string[][] = [];
  for (const run of runs) {
    if (run.redis === null) continue;
    const { roundTrips, executed, usec } = run.redis;
    rows.push([run.config, run.scenario, "round trips (client commands)", "", f2(roundTrips), ""]);
    rows.push(["", "", "commands executed (scripts' included)", "", f2(executed), ""]);
    rows.push(["", "", "Redis µs in the client commands", "", "", usec.toFixed(1)]);
    for (const c of run.redis.commands) {
      const us = c.usec / run.wrk.requests;
      rows.push(["", "", c.command, String(c.calls), c.perRequest.toFixed(3), us.toFixed(1)]);
    }
  }
  return rows.length === 0
    ? "(no configuration with Redis was measured)"
    : table(["config", "scenario", "command", "calls", "per request", "µs per request"], rows, 3);
}

/** Ledger rows per second per store, or why one was not measured. */
export function formatLedger(ledger: readonly LedgerOutcome[]): string {
  return table(
    ["store", "rows written", "seconds", "rows/s", "note"],
    ledger.map((l) =>
      "error" in l ? [l.store, "—", "—", "—", l.error.split("\n")[0]!.slice(0, 160)] : [
        l.store,
        `${l.written}/${l.rows}`,
        l.seconds.toFixed(2),
        l.rowsPerSecond.toFixed(0),
        l.failedCalls > 0 ? `${l.failedCalls} recordUsage calls rejected` : "",
      ]
    ),
    1,
  );
}
