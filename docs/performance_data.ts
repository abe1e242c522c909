/**
 * The measured figures the Performance page shows: `docs/performance.json`, written by
 * `deno task bench --publish` from the bench's results files (`bench/publish.ts`), never by hand.
 * @module
 */
import published from "./performance.json" with { type: "json" };

/** One target's figures in one measurement. */
export interface Cell {
  /** Requests per second. */
  rps: number;
  /** The serving process's CPU time per request (all threads), µs; null when not measured. */
  cpuUs: number | null;
  p50Ms: number;
  p99Ms: number;
}

/** One scenario at one concurrency, every target measured in turns in the same run. */
export interface ThroughputRow {
  scenario: string;
  label: string;
  kind: "passthrough" | "translated";
  concurrency: number;
  direct: Cell | null;
  /** The minimal Deno fetch proxy on the same upstream call (a translated scenario's baseline). */
  proxy: Cell | null;
  gatehouse: Cell | null;
  /** Every governance policy on the key and its team, metrics, a JSON log line per request. */
  everythingOn: Cell | null;
  /** Portkey's open-source gateway (`bench/portkey.ts`) on the same upstream call: the JSON
   * passthrough scenarios; absent from publications made before it was measured. */
  portkey?: Cell | null;
}

/** A pass/fail line of the bench against issue #19's targets. */
export interface Check {
  name: string;
  measured: string;
  target: string;
  pass: boolean;
}

/** One deployment shape of the real `main.ts` (`--only=scale`). */
export interface DeploymentRow {
  config: string;
  scenario: string;
  workers: number;
  gatehouse: Cell;
  proxy: Cell;
  direct: Cell;
}

/** The many-streams run (`--only=streams`), through one target. */
export interface StreamsRun {
  target: string;
  streams: number;
  completed: number;
  /** The largest gaps between two chunks beyond the upstream's own interval, ms. */
  gapP99Ms: number;
  gapMaxMs: number;
  rssIdleMb: number;
  rssPeakMb: number;
  /** 3 s after the last stream ended. */
  rssAfterMb: number;
  /** 20 s after (absent or null: not read by that run). */
  rssSettledMb?: number | null;
  /** Resident bytes per open stream at the peak, above idle. */
  bytesPerStream: number;
  /** The process's CPU time per chunk carried, µs (stream opening included), and as a multiple
   * of the upstream's for the same chunks (absent or null: not read by that run). */
  cpuPerChunk?: { us: number; timesUpstream: number } | null;
  /** What the run was: streams, chunks, interval, ramp. */
  shape: string;
}

/** Everything the page shows. */
export interface PerformanceData {
  measuredAt: string;
  commit: string;
  machine: string;
  /** How the main bench measured (generator, seconds, slices). */
  method: string;
  throughput: ThroughputRow[];
  checks: Check[];
  deployments: DeploymentRow[];
  deploymentChecks: Check[];
  streams: StreamsRun[];
}

/** The published figures. */
export const PERFORMANCE: PerformanceData = published as PerformanceData;
