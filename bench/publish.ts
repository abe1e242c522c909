/**
 * `deno task bench --publish`: turns the bench's latest results files (`bench/results/latest.json`
 * from `deno task bench`, `scale.json` from `--only=scale`, `streams*.json` from
 * `--only=streams`) into `docs/performance.json`, the figures the docs' Performance page shows.
 * Nothing is typed in by hand: run the benches, then publish. A results file that is missing is
 * left out of the page (and said so).
 * @module
 */
import type {
  Cell,
  Check,
  DeploymentRow,
  PerformanceData,
  StreamsRun,
  ThroughputRow,
} from "../docs/performance_data.ts";
import { SCENARIOS } from "./scenarios.ts";

/** What `latest.json` holds of one measurement. */
interface LatestMeasurement {
  scenario: string;
  target: string;
  concurrency: number;
  result: { throughput: number; p50: number; p99: number };
  cpuUsPerRequest?: number | null;
}

/** What `latest.json` holds (`bench/main.ts`). */
export interface LatestFile {
  finishedAt: string;
  commit?: string | null;
  machine: {
    cpuModel: string | null;
    cpus: number;
    memoryGiB: number | null;
    kernel: string | null;
    deno: { deno: string };
    wrk: string | null;
  };
  settings: { generator: string; seconds: number; rounds: number };
  /** The host's steal time during the run (absent from runs before it was read). */
  stolen?: { seconds: number; share: number };
  measurements: LatestMeasurement[];
  checks: Check[];
}

/** One target's figures in `scale.json`. */
interface ScaleTarget {
  wrk: { rps: number; p50: number; p99: number };
  cpu: { usPerRequest: number | null } | null;
}

/** What `scale.json` holds (`bench/scale/main.ts`). */
export interface ScaleFile {
  settings: { configs: { id: string; label: string; workers: number }[] };
  runs:
    (ScaleTarget & { config: string; scenario: string; direct: ScaleTarget; proxy: ScaleTarget })[];
  checks?: Check[];
}

/** What a `streams*.json` holds (`bench/streams/main.ts`). */
export interface StreamsFile {
  result: {
    target: string;
    streams: number;
    chunks: number;
    intervalMs: number;
    rampMs: number;
    completed: number;
    gapBeyondUpstreamMs: { p99: number; max: number };
    /** `settled` is absent from runs before it was read. */
    rssMb: { idle: number; peak: number; after: number; settled?: number };
    bytesPerOpenStream: number;
    /** Absent from runs before it was read. */
    cpuPerChunk?: { us: number; timesUpstream: number };
  };
}

function cellOf(m: LatestMeasurement | undefined): Cell | null {
  if (m === undefined) return null;
  return {
    rps: Math.round(m.result.throughput),
    cpuUs: m.cpuUsPerRequest == null ? null : round1(m.cpuUsPerRequest),
    p50Ms: m.result.p50,
    p99Ms: m.result.p99,
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

function scaleCell(t: ScaleTarget): Cell {
  const cpu = t.cpu?.usPerRequest;
  return {
    rps: Math.round(t.wrk.rps),
    cpuUs: cpu == null ? null : round1(cpu),
    p50Ms: t.wrk.p50,
    p99Ms: t.wrk.p99,
  };
}

/** The throughput rows of a main bench run: one per scenario and concurrency, in run order. */
export function throughputRows(latest: LatestFile): ThroughputRow[] {
  const rows: ThroughputRow[] = [];
  const find = (scenario: string, target: string, concurrency: number) =>
    latest.measurements.find((m) =>
      m.scenario === scenario && m.target === target && m.concurrency === concurrency
    );
  const concurrencies = [...new Set(latest.measurements.map((m) => m.concurrency))].sort((a, b) =>
    a - b
  );
  for (const concurrency of concurrencies) {
    for (const scenario of SCENARIOS) {
      const gatehouse = find(scenario.id, "gatehouse", concurrency);
      if (gatehouse === undefined) continue;
      const base = scenario.baseline ?? scenario.id;
      rows.push({
        scenario: scenario.id,
        label: scenario.label,
        kind: scenario.kind,
        concurrency,
        direct: cellOf(find(base, "direct", concurrency)),
        proxy: cellOf(find(base, "proxy", concurrency)),
        gatehouse: cellOf(gatehouse),
        everythingOn: cellOf(find(scenario.id, "policied", concurrency)),
        portkey: cellOf(find(scenario.id, "portkey", concurrency)),
      });
    }
  }
  return rows;
}

/** The deployment rows of a scale run. */
export function deploymentRows(scale: ScaleFile): DeploymentRow[] {
  return scale.runs.map((run) => {
    const config = scale.settings.configs.find((c) => c.id === run.config);
    return {
      config: config?.label ?? run.config,
      scenario: run.scenario,
      workers: config?.workers ?? 1,
      gatehouse: scaleCell(run),
      proxy: scaleCell(run.proxy),
      direct: scaleCell(run.direct),
    };
  });
}

/** One streams run. */
export function streamsRun(file: StreamsFile): StreamsRun {
  const r = file.result;
  return {
    target: r.target,
    streams: r.streams,
    completed: r.completed,
    gapP99Ms: r.gapBeyondUpstreamMs.p99,
    gapMaxMs: r.gapBeyondUpstreamMs.max,
    rssIdleMb: r.rssMb.idle,
    rssPeakMb: r.rssMb.peak,
    rssAfterMb: r.rssMb.after,
    rssSettledMb: r.rssMb.settled ?? null,
    bytesPerStream: r.bytesPerOpenStream,
    cpuPerChunk: r.cpuPerChunk ?? null,
    shape: `${r.streams} streams of ${r.chunks} chunks every ${r.intervalMs} ms, opened over ` +
      `${r.rampMs / 1000} s`,
  };
}

/** The page's figures from the results files found. */
export function publishData(
  latest: LatestFile,
  scale: ScaleFile | null,
  streams: StreamsFile[],
  commit: string,
): PerformanceData {
  // The commit of the main run; the others are expected from the same checkout.
  const m = latest.machine;
  const machine = [
    m.cpuModel ?? "unknown CPU",
    `${m.cpus} CPUs`,
    m.memoryGiB === null ? null : `${m.memoryGiB} GiB`,
    m.kernel,
    `Deno ${m.deno.deno}`,
    m.wrk,
  ].filter((part) => part !== null).join(", ");
  const s = latest.settings;
  return {
    measuredAt: latest.finishedAt,
    commit,
    machine,
    method: `${s.generator === "wrk" ? "wrk (external)" : "fetch (in process)"}, ${s.seconds} s ` +
      `per measurement in 5 slices taken in turns by every target, ${s.rounds} round(s)` +
      (latest.stolen === undefined
        ? ""
        : `; the virtual machine's host took ${(latest.stolen.share * 100).toFixed(1)}% of the ` +
          "cores meanwhile (steal time)"),
    throughput: throughputRows(latest),
    checks: latest.checks,
    deployments: scale === null ? [] : deploymentRows(scale),
    deploymentChecks: scale?.checks ?? [],
    streams: streams.map(streamsRun),
  };
}

async function readJson<T>(url: URL): Promise<T | null> {
  try {
    return JSON.parse(await Deno.readTextFile(url)) as T;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Writes `docs/performance.json` from `bench/results/`; returns the exit code. */
export async function publish(): Promise<number> {
  const results = new URL("./results/", import.meta.url);
  const latest = await readJson<LatestFile>(new URL("latest.json", results));
  if (latest === null) {
    console.error("no bench/results/latest.json: run deno task bench first");
    return 1;
  }
  const scale = await readJson<ScaleFile>(new URL("scale.json", results));
  const streams: StreamsFile[] = [];
  const workers: string[] = [];
  for await (const entry of Deno.readDir(results)) {
    if (/^streams-workers\d+\.json$/.test(entry.name)) workers.push(entry.name);
  }
  // By their number of workers (a name sort puts 10 before 2).
  const count = (name: string) => Number(/\d+/.exec(name)![0]);
  workers.sort((a, b) => count(a) - count(b));
  for (const name of ["streams.json", ...workers, "streams-proxy.json", "streams-direct.json"]) {
    const file = await readJson<StreamsFile>(new URL(name, results));
    if (file !== null) streams.push(file);
  }
  const data = publishData(latest, scale, streams, latest.commit ?? "unknown");
  const out = new URL("../docs/performance.json", import.meta.url);
  await Deno.writeTextFile(out, `${JSON.stringify(data, null, 2)}\n`);
  console.log(
    `wrote ${out.pathname}: ${data.throughput.length} throughput rows, ` +
      `${data.deployments.length} deployment rows${scale === null ? " (no scale.json)" : ""}, ` +
      `${data.streams.length} streams run(s)`,
  );
  return 0;
}
