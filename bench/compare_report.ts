/**
 * The figures of `--compare` (`compare.ts`): each round's slices of the two gatehouse builds,
 * pooled into CPU time per request and requests served, and the table that prints them.
 * @module
 */
import { table } from "./report.ts";

/** One slice of load on one build: requests served and the CPU time its process used. */
export interface Slice {
  requests: number;
  cpuMs: number;
  seconds: number;
}

/** One round: a slice of each build (measured in alternating order). */
export interface Round {
  base: Slice;
  head: Slice;
}

/** The pooled figures of one build. */
export interface Pooled {
  requests: number;
  cpuUsPerRequest: number;
  requestsPerSecond: number;
}

/** Sums `slices`: CPU µs per request over all their requests. */
export function pool(slices: readonly Slice[]): Pooled {
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const cpuMs = slices.reduce((sum, s) => sum + s.cpuMs, 0);
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0);
  return {
    requests,
    cpuUsPerRequest: requests === 0 ? Number.NaN : (cpuMs * 1000) / requests,
    requestsPerSecond: seconds === 0 ? Number.NaN : requests / seconds,
  };
}

const perRequest = (s: Slice) =>
  s.requests === 0 ? "-" : ((s.cpuMs * 1000) / s.requests).toFixed(1);

/** The rounds and the pooled line, base against this checkout, and what each ratio means. */
export function formatComparison(rev: string, rounds: readonly Round[]): string {
  const base = pool(rounds.map((r) => r.base));
  const head = pool(rounds.map((r) => r.head));
  const rows = rounds.map((r, i) => [
    `${i + 1}`,
    (r.base.requests / r.base.seconds).toFixed(0),
    perRequest(r.base),
    (r.head.requests / r.head.seconds).toFixed(0),
    perRequest(r.head),
  ]);
  rows.push([
    "pooled",
    base.requestsPerSecond.toFixed(0),
    base.cpuUsPerRequest.toFixed(1),
    head.requestsPerSecond.toFixed(0),
    head.cpuUsPerRequest.toFixed(1),
  ]);
  const header = ["round", `${rev} req/s`, "CPU µs/req", "this req/s", "CPU µs/req"];
  const cpu = head.cpuUsPerRequest / base.cpuUsPerRequest;
  const served = head.requests / base.requests;
  return `${table(header, rows, 1)}\n\n` +
    `This checkout against ${rev}: CPU per request × ${cpu.toFixed(3)}, requests served × ` +
    `${served.toFixed(3)}. Both builds ran at once on one upstream, their slices alternating, so ` +
    "drift in the machine's speed lands on both; an A/A run (the same commit on both sides) " +
    "shows how far apart two identical builds measure on this box.";
}
