/**
 * One measurement made of several wrk runs (the slices a target runs in turn with the others):
 * counts and run time summed, percentiles from the slices' pooled latency quantiles (the
 * `done` hook of `../wrk_load.ts`, since percentiles of the separate runs cannot be averaged).
 * @module
 */
import { type LoadSamples, percentile } from "../load.ts";
import type { WrkResult } from "./wrk.ts";

/** One slice: wrk's `--latency` report and its `done` hook's quantiles. */
export interface WrkSlice {
  wrk: WrkResult;
  samples: LoadSamples;
}

/** The slices as one run: requests, seconds, non-2xx and socket errors summed, req/s over the
 * summed time, p50/p75/p90/p99 of the pooled quantiles (each slice's weighed by its requests,
 * the quantiles being equally many per slice). */
export function poolWrk(slices: readonly WrkSlice[]): WrkResult {
  if (slices.length === 0) throw new Error("poolWrk: no slices");
  const requests = slices.reduce((n, s) => n + s.wrk.requests, 0);
  const seconds = slices.reduce((n, s) => n + s.wrk.seconds, 0);
  const weighted: { value: number; weight: number }[] = [];
  for (const { wrk, samples } of slices) {
    const weight = samples.latencies.length > 0 ? wrk.requests / samples.latencies.length : 0;
    for (const value of samples.latencies) weighted.push({ value, weight });
  }
  weighted.sort((a, b) => a.value - b.value);
  const total = weighted.reduce((n, w) => n + w.weight, 0);
  const at = (p: number) => {
    if (total === 0) return percentile([], p);
    let seen = 0;
    for (const { value, weight } of weighted) {
      seen += weight;
      if (seen >= (p / 100) * total) return value;
    }
    return weighted[weighted.length - 1]!.value;
  };
  const sum = (field: keyof WrkResult["socketErrors"]) =>
    slices.reduce((n, s) => n + s.wrk.socketErrors[field], 0);
  return {
    requests,
    seconds,
    rps: seconds > 0 ? requests / seconds : NaN,
    p50: at(50),
    p75: at(75),
    p90: at(90),
    p99: at(99),
    non2xx: slices.reduce((n, s) => n + s.wrk.non2xx, 0),
    socketErrors: {
      connect: sum("connect"),
      read: sum("read"),
      write: sum("write"),
      timeout: sum("timeout"),
    },
  };
}
