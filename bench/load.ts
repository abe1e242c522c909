/**
 * The load generator: `concurrency` loops, each sending one request at a time with `fetch`
 * (pooled keep-alive connections) and reading the whole response body before the next. A run
 * stops by itself at `maxRequests` or after `durationMs`, whichever comes first.
 * @module
 */

/** One load run. */
export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  /** The request body, sent as it is with every request. */
  body: string;
  concurrency: number;
  /** Stop after this many requests in all. */
  maxRequests: number;
  /** Stop issuing new requests after this long. */
  durationMs: number;
}

/** What a run measured. Latencies cover request start to the last body byte. */
export interface LoadResult {
  requests: number;
  errors: number;
  /** Status and start of the body of the first failure, for the report. */
  firstError: string | null;
  elapsedMs: number;
  /** Completed requests per second (errors excluded). */
  throughput: number;
  p50: number;
  p99: number;
  mean: number;
}

/** The `p`-th percentile (0–100) of ascending `sorted` values, by nearest rank. NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile ${p} is not within 0..100`);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The raw outcome of one run, before percentiles: what {@link summarizeLoads} merges. */
export interface LoadSamples {
  /** Latencies of the successful requests, ms; or, with `requests`, quantiles standing for
   * them (an external generator reports a distribution, not every request). */
  latencies: Float64Array;
  /** Successful requests, when `latencies` holds quantiles rather than one value each. */
  requests?: number;
  errors: number;
  firstError: string | null;
  elapsedMs: number;
}

/** Sends the requests of `spec` and returns the raw samples. */
export async function sampleLoad(spec: LoadSpec): Promise<LoadSamples> {
  const latencies = new Float64Array(spec.maxRequests);
  let issued = 0;
  let completed = 0;
  let errors = 0;
  let firstError: string | null = null;
  const started = performance.now();
  const deadline = started + spec.durationMs;

  const loop = async () => {
    while (issued < spec.maxRequests && performance.now() < deadline) {
      issued++;
      const t0 = performance.now();
      try {
        const response = await fetch(spec.url, {
          method: "POST",
          headers: spec.headers,
          body: spec.body,
        });
        const bytes = await response.bytes();
        const t1 = performance.now();
        if (response.ok) {
          latencies[completed++] = t1 - t0;
        } else {
          errors++;
          firstError ??= `HTTP ${response.status}: ${
            new TextDecoder().decode(bytes.subarray(0, 300))
          }`;
        }
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, loop));
  return {
    latencies: latencies.slice(0, completed),
    errors,
    firstError,
    elapsedMs: performance.now() - started,
  };
}

/** Merges the samples of several runs (slices of one interleaved measurement) into one result:
 * latencies pooled, throughput over the summed run time. */
export function summarizeLoads(parts: LoadSamples[]): LoadResult {
  let count = 0;
  let points = 0;
  for (const part of parts) {
    count += part.requests ?? part.latencies.length;
    points += part.latencies.length;
  }
  const sorted = new Float64Array(points);
  let offset = 0;
  for (const part of parts) {
    sorted.set(part.latencies, offset);
    offset += part.latencies.length;
  }
  sorted.sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const mean = points === 0 ? NaN : sum / points;
  const elapsedMs = parts.reduce((total, part) => total + part.elapsedMs, 0);
  return {
    requests: count,
    errors: parts.reduce((total, part) => total + part.errors, 0),
    firstError: parts.find((part) => part.firstError !== null)?.firstError ?? null,
    elapsedMs,
    throughput: count / (elapsedMs / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean,
  };
}

/** Sends the requests of `spec` and measures them. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return summarizeLoads([await sampleLoad(spec)]);
}
