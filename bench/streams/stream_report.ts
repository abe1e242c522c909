/**
 * The streams bench's figures, summed up: completion, the gaps beyond the upstream's own, memory
 * (per open stream, and from inside the process when it was inspected), and CPU time per process.
 * @module
 */
import type { MemoryUsage } from "./inspector.ts";
import type { StreamRead } from "./read_stream.ts";

/** What one target's run measured. */
export interface RunFigures {
  target: string;
  reader: string;
  streams: number;
  chunks: number;
  intervalMs: number;
  rampMs: number;
  promptBytes: number;
  seconds: number;
  /** When the first stream was opened (`performance.now()`). */
  startedAt: number;
  outcomes: StreamRead[];
  /** The measured process's RSS, MB. */
  /** `after`: 3 s after the last stream ended; `settled`: 20 s after. */
  rss: { idle: number; peak: number; after: number; settled: number; afterGc: number | null };
  /** CPU time of each process during the streams (upstream, the target, the bench), s. */
  cpuSeconds: Record<string, number>;
  /** `Deno.memoryUsage()` of the measured process: idle (after a full collection), with `open`
   * streams open, then the same after a full collection (`openLive`), and after the streams
   * and a collection. */
  inside: {
    idle: MemoryUsage;
    open: MemoryUsage & { open: number };
    openLive: MemoryUsage;
    afterGc: MemoryUsage;
  } | null;
  lowered: string | null;
}

const round = (n: number, places = 0) => Math.round(n * 10 ** places) / 10 ** places;
const MB = 2 ** 20;

/** The gap beyond the upstream's a stream may show and still count as on time, ms. */
export const ON_TIME_MS = 50;

/** The `cpuSeconds` entries that are not the measured process. */
const NOT_TARGET = new Set(["upstream", "bench", "interrupts", "others", "stolen"]);

/** The measured process's CPU time per chunk the completed streams carried, µs (stream opening
 * included), and as a multiple of the upstream's: the upstream does the same fixed work per
 * chunk for every target, so the multiple compares runs on a box whose speed drifts between
 * them (a direct run measures the upstream itself: 1). */
function cpuPerChunk(f: RunFigures, completed: number): { us: number; timesUpstream: number } {
  const upstream = f.cpuSeconds.upstream ?? NaN;
  const target = Object.entries(f.cpuSeconds).find(([name]) => !NOT_TARGET.has(name))?.[1] ??
    upstream;
  const chunks = completed * f.chunks;
  return { us: round(target * 1e6 / chunks, 1), timesUpstream: round(target / upstream, 2) };
}

/** A median, 99th percentile and largest value. */
type Spread = { p50: number; p99: number; max: number };

/** The {@link Spread} of `values` (null for none), rounded to 0.1. */
function spread(values: number[]): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!, 1);
  return { p50: at(0.5), p99: at(0.99), max: round(sorted.at(-1)!, 1) };
}

/** How many streams' worst gap (when over {@link ON_TIME_MS} late) ended in each second of the
 * run. */
function lateBySecond(f: RunFigures): number[] {
  const bins: number[] = new Array(Math.ceil(f.seconds)).fill(0);
  for (const o of f.outcomes) {
    if (!o.ok || o.maxGapMs - f.intervalMs <= ON_TIME_MS) continue;
    const second = Math.min(bins.length - 1, Math.floor((o.maxGapAt - f.startedAt) / 1000));
    bins[second]!++;
  }
  return bins;
}

/** The JSON result of one run. */
export function summarize(f: RunFigures): Record<string, unknown> {
  const done = f.outcomes.filter((o) => o.ok);
  const gaps = done.map((o) => o.maxGapMs - f.intervalMs);
  const errors = new Map<string, number>();
  for (const o of f.outcomes) {
    if (o.error !== null) errors.set(o.error, (errors.get(o.error) ?? 0) + 1);
  }
  const cpuTotal = Object.values(f.cpuSeconds).reduce((a, b) => a + b, 0);
  const cores = navigator.hardwareConcurrency;
  let inside: Record<string, unknown> | null = null;
  if (f.inside) {
    const { idle, open, openLive, afterGc } = f.inside;
    const native = (m: MemoryUsage) => m.rss - m.heapTotal - m.external;
    const per = (pick: (m: MemoryUsage) => number) => round((pick(open) - pick(idle)) / open.open);
    const mb = (m: MemoryUsage) => ({
      rss: round(m.rss / MB),
      heapUsed: round(m.heapUsed / MB),
      heapTotal: round(m.heapTotal / MB),
      external: round(m.external / MB),
      native: round(native(m) / MB),
    });
    inside = {
      idleMb: mb(idle),
      openMb: { ...mb(open), streamsOpen: open.open },
      afterGcMb: mb(afterGc),
      bytesPerOpenStream: {
        rss: per((m) => m.rss),
        heapUsed: per((m) => m.heapUsed),
        heapTotal: per((m) => m.heapTotal),
        external: per((m) => m.external),
        native: per(native),
        // The heap the streams keep alive: garbage not yet collected is most of heapUsed above.
        liveHeap: round((openLive.heapUsed - idle.heapUsed) / open.open),
      },
    };
  }
  return {
    target: f.target,
    reader: f.reader,
    streams: f.streams,
    chunks: f.chunks,
    intervalMs: f.intervalMs,
    rampMs: f.rampMs,
    promptBytes: f.promptBytes,
    completed: done.length,
    seconds: round(f.seconds, 1),
    gapBeyondUpstreamMs: spread(gaps),
    streamsLaterThan50ms: gaps.filter((g) => g > ON_TIME_MS).length,
    // From each completed stream's request to its first body bytes: a stream that waited on a
    // connect that timed out and was retried shows here, not in its gaps.
    firstByteMs: spread(done.map((o) => o.firstByteMs)),
    // When (s after the first stream opened) each late stream's worst gap ended.
    lateBySecond: lateBySecond(f),
    readsPerStream: round(done.reduce((n, o) => n + o.reads, 0) / Math.max(1, done.length), 1),
    rssMb: {
      idle: round(f.rss.idle),
      peak: round(f.rss.peak),
      after: round(f.rss.after),
      settled: round(f.rss.settled),
      afterGc: f.rss.afterGc === null ? null : round(f.rss.afterGc),
    },
    bytesPerOpenStream: round((f.rss.peak - f.rss.idle) * MB / f.streams),
    cpuSeconds: Object.fromEntries(Object.entries(f.cpuSeconds).map(([k, v]) => [k, round(v, 1)])),
    cpuPerChunk: cpuPerChunk(f, done.length),
    coresBusy: `${round(cpuTotal / f.seconds, 2)} of ${cores}`,
    inside,
    errors: Object.fromEntries([...errors].slice(0, 5)),
    lowered: f.lowered,
  };
}

/** The runs side by side, one line each. */
export function formatSummary(results: Record<string, unknown>[]): string {
  const header = "target     streams  done   gap p50/p99/max ms  first byte p50/p99/max ms  " +
    "RSS idle/peak/after/settled MB  " +
    "B/stream  CPU µs/chunk (× upstream's)  " +
    "CPU s (upstream / target / bench / interrupts / others / stolen by the host)";
  const lines = results.map((r) => {
    const gap = r.gapBeyondUpstreamMs as Spread | null;
    const first = r.firstByteMs as Spread | null;
    const rss = r.rssMb as { idle: number; peak: number; after: number; settled: number };
    const cpu = Object.values(r.cpuSeconds as Record<string, number>).join(" / ");
    const perChunk = r.cpuPerChunk as { us: number; timesUpstream: number };
    return [
      String(r.target).padEnd(10),
      String(r.streams).padStart(7),
      String(r.completed).padStart(6),
      (gap ? `${gap.p50}/${gap.p99}/${gap.max}` : "-").padStart(20),
      (first ? `${first.p50}/${first.p99}/${first.max}` : "-").padStart(26),
      `${rss.idle}/${rss.peak}/${rss.after}/${rss.settled}`.padStart(30),
      String(r.bytesPerOpenStream).padStart(9),
      `${perChunk.us} (${perChunk.timesUpstream})`.padStart(29),
      ` ${cpu}`,
    ].join(" ");
  });
  return [header, ...lines].join("\n");
}
