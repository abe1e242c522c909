/**
 * The scale bench's measured run of one scenario: the gateway, the minimal proxy and the fake
 * upstream directly take turns in short wrk slices (in reverse order every other slice, as
 * `../measure.ts` does), so a slow spell of the shared machine falls on all of them alike.
 * Around each slice the CPU time of the target's process (all its threads) and of the fake
 * upstream is read (`../cpu_time.ts`).
 * @module
 */
import { cpuUsPerRequest, perCoreRate, processCpuMs } from "../cpu_time.ts";
import { parseWrkDone, WRK_DONE_HOOK } from "../wrk_load.ts";
import { poolWrk, type WrkSlice } from "./pool_wrk.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

/** The three targets of a scale measurement. */
export type TurnName = "direct" | "proxy" | "gateway";

/** One target of the turns. */
export interface TurnTarget {
  name: TurnName;
  /** The full request URL. */
  url: string;
  /** Its wrk request script (`wrkScript`). */
  script: string;
  /** The process serving it, whose CPU time is its cost. */
  pid: number;
  /** Wraps each of its slices (the gateway's: Redis's command counts read around it). */
  around?: (slice: () => Promise<void>) => Promise<void>;
}

/** CPU time a process used during a target's slices. */
export interface CpuUse {
  /** Summed over the slices, ms (in 10 ms ticks). */
  ms: number;
  /** Per request completed, µs. */
  usPerRequest: number;
  /** Requests per second one core could serve at that cost (1e6 / µs). */
  perCore: number;
  /** Cores kept busy on average: CPU time over the slices' wall time. */
  cores: number;
}

/** One target's measurement, its slices pooled. */
export interface TargetRun {
  wrk: WrkResult;
  /** Its serving process's CPU. */
  cpu: CpuUse;
  /** Cores the fake upstream kept busy meanwhile (it answers every target). */
  upstreamCores: number;
}

/** How the turns run. */
export interface TurnSettings {
  slices: number;
  sliceSeconds: number;
  connections: number;
  threads: number;
  /** The fake upstream's process id. */
  upstreamPid: number;
  /** Wait after each slice before reading the CPU times (requests in flight, batched writes). */
  settleMs: number;
}

/** CPU use of `ms` over `requests` requests and `seconds` of wall time. */
export function cpuUse(ms: number, requests: number, seconds: number): CpuUse {
  const usPerRequest = cpuUsPerRequest(ms, requests);
  return {
    ms,
    usPerRequest,
    perCore: perCoreRate(usPerRequest),
    cores: seconds > 0 ? ms / 1000 / seconds : NaN,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Measures `targets` in turns; returns each one's run by name. */
export async function measureInTurns(
  targets: readonly TurnTarget[],
  settings: TurnSettings,
): Promise<Map<TurnName, TargetRun>> {
  const slices = new Map<TurnName, WrkSlice[]>(targets.map((t) => [t.name, []]));
  const cpu = new Map<TurnName, { own: number; upstream: number }>(
    targets.map((t) => [t.name, { own: 0, upstream: 0 }]),
  );
  for (let slice = 0; slice < settings.slices; slice++) {
    const order = slice % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const run = async () => {
        const pids = [target.pid, settings.upstreamPid];
        const before = await Promise.all(pids.map(processCpuMs));
        const { output, ...wrk } = await runWrk({
          url: target.url,
          script: target.script + WRK_DONE_HOOK,
          connections: settings.connections,
          threads: settings.threads,
          seconds: settings.sliceSeconds,
        });
        await sleep(settings.settleMs);
        const after = await Promise.all(pids.map(processCpuMs));
        slices.get(target.name)!.push({ wrk, samples: parseWrkDone(output) });
        const sum = cpu.get(target.name)!;
        sum.own += after[0]! - before[0]!;
        sum.upstream += after[1]! - before[1]!;
      };
      await (target.around ? target.around(run) : run());
    }
  }
  const runs = new Map<TurnName, TargetRun>();
  for (const target of targets) {
    const wrk = poolWrk(slices.get(target.name)!);
    const { own, upstream } = cpu.get(target.name)!;
    runs.set(target.name, {
      wrk,
      cpu: cpuUse(own, wrk.requests, wrk.seconds),
      upstreamCores: wrk.seconds > 0 ? upstream / 1000 / wrk.seconds : NaN,
    });
  }
  return runs;
}
