/**
 * Children of prom-client counters and histograms for one label set that add to the stored series
 * directly. prom-client's own child (`labels(...)`) rebuilds, validates and hashes its label
 * object on every `inc`/`observe`: with a request's six to eight updates that was about 4% of a
 * passthrough request's CPU time at c=32. These validate once, let prom-client create the series
 * at the first update (so a label set never updated is never exported, as before), then update
 * the stored entry in place. Exposition, the workers' aggregation and `reset()` stay
 * prom-client's; a reset (a new stored map) is noticed and the series created again.
 * The entry shapes are prom-client 15's (pinned in deno.json); `direct_children_test.ts` holds
 * the exported text equal to prom-client's own children's.
 * @module
 */
import type client from "prom-client";

/** A counter series, as prom-client 15 stores it. */
interface CounterEntry {
  value: number;
}

/** A histogram series, as prom-client 15 stores it: per-bucket (not cumulative) counts keyed by
 * upper bound. */
interface HistogramEntry {
  labels: Record<string, string>;
  sum: number;
  count: number;
  bucketValues: Record<number, number>;
}

/** What of a prom-client metric these children read. */
interface Stored<Entry> {
  labelNames: string[];
  hashMap: Record<string, Entry>;
}

/** Adds to one counter series. */
export interface DirectCounter {
  inc(value?: number): void;
}

/** Observes into one histogram series. */
export interface DirectHistogram {
  observe(value: number): void;
}

function labelObject(metric: { labelNames: string[] }, values: readonly string[]) {
  if (values.length !== metric.labelNames.length) {
    throw new Error(`expected ${metric.labelNames.length} label values, got ${values.length}`);
  }
  const labels: Record<string, string> = {};
  metric.labelNames.forEach((name, i) => (labels[name] = values[i]!));
  return labels;
}

/** The child of `counter` for label `values`. */
export function directCounter(counter: client.Counter, values: readonly string[]): DirectCounter {
  const stored = counter as unknown as Stored<CounterEntry> & {
    incWithoutExemplar(labels: Record<string, string>, value: number): { labelHash: string };
  };
  const labels = labelObject(stored, values);
  let map: Record<string, CounterEntry> | null = null;
  let entry: CounterEntry | undefined;
  return {
    inc(value = 1) {
      if (entry !== undefined && stored.hashMap === map) {
        if (!(value >= 0) || !Number.isFinite(value)) {
          throw new TypeError(`Value is not a valid counter increment: ${value}`);
        }
        entry.value += value;
        return;
      }
      const { labelHash } = stored.incWithoutExemplar(labels, value);
      map = stored.hashMap;
      entry = map[labelHash];
    },
  };
}

/** The first bucket bound at or above `value`, or -1 (prom-client's `findBound`). */
function boundOf(bounds: readonly number[], value: number): number {
  for (const bound of bounds) if (value <= bound) return bound;
  return -1;
}

/** The child of `histogram` for label `values`. */
export function directHistogram(
  histogram: client.Histogram,
  values: readonly string[],
): DirectHistogram {
  const stored = histogram as unknown as Stored<HistogramEntry> & { upperBounds: number[] };
  const labels = labelObject(stored, values);
  let map: Record<string, HistogramEntry> | null = null;
  let entry: HistogramEntry | undefined;
  return {
    observe(value) {
      if (entry !== undefined && stored.hashMap === map) {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        entry.sum += value;
        entry.count += 1;
        const bound = boundOf(stored.upperBounds, value);
        if (bound !== -1) entry.bucketValues[bound]! += 1;
        return;
      }
      histogram.observe(labels, value);
      map = stored.hashMap;
      // prom-client keeps the very label object it was given on the series it creates.
      entry = Object.values(map).find((e) => e.labels === labels);
    },
  };
}
