/**
 * The scale-out bench's printed tables: throughput and latency per configuration and scenario,
 * Redis commands per request, ledger rows per second.
 * @module
 */
import { table } from "../report.ts";
import type { LedgerOutcome } from "./ledger_stores.ts";
import type { ScaleRun } from "./run_config.ts";
import type { ScaleConfig } from "./scale_settings.ts";

const f2 = (value: number) => Number.isFinite(value) ? value.toFixed(2) : "—";

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
