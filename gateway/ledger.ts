/**
 * One ledger record per request. A `Meter` is opened when a request has a key and a model, fed
 * usage as it becomes known (a stream's final event, a body), and closed exactly once: at the end
 * of the response, on an error, or when the client goes away midway.
 * @module
 */
import type { Pricing } from "../catalog/schema.ts";
import type { Usage } from "../core/response.ts";
import { emptyUsage } from "../core/response.ts";
import type { Store } from "../store/store.ts";
import { GatewayError } from "../core/errors.ts";

/** Dollars for `usage` and `images` at `pricing`. Cached reads use the cached price and cache
 * writes the cache-write price, each falling back to the input price. */
export function costOf(pricing: Pricing, usage: Usage, images = 0): number {
  const perToken = (price: number | undefined, tokens: number) =>
    ((price ?? 0) * tokens) / 1_000_000;
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return perToken(pricing.input, uncached) +
    perToken(pricing.cached_input ?? pricing.input, usage.cacheReadTokens) +
    perToken(pricing.cache_write ?? pricing.input, usage.cacheWriteTokens) +
    perToken(pricing.output, usage.outputTokens) +
    (pricing.per_image ?? 0) * images;
}

/** What a meter records about. */
export interface MeterSubject {
  store: Store;
  keyId: string;
  model: string;
  upstream: string;
  route: string;
  pricing: Pricing;
  stream: boolean;
  /** Unix ms when the request arrived. */
  started: number;
  onError: (error: unknown) => void;
}

/** Collects one request's usage and writes its record once. */
export class Meter {
  #subject: MeterSubject;
  #usage: Usage = emptyUsage();
  #images = 0;
  #closed = false;

  constructor(subject: MeterSubject) {
    this.#subject = subject;
  }

  /** Merges usage fields; later values win (streams report cumulative numbers). */
  add(usage: Partial<Usage>): void {
    for (const [field, value] of Object.entries(usage) as [keyof Usage, number | undefined][]) {
      if (typeof value === "number" && Number.isFinite(value)) this.#usage[field] = value;
    }
  }

  /** Counts generated images. */
  addImages(count: number): void {
    this.#images += count;
  }

  get usage(): Usage {
    return { ...this.#usage };
  }

  /** Closes for a request that failed with `error`: its own status for a gateway error, 499
   * when the client went away, else 500. */
  fail(error: unknown, aborted: boolean): void {
    this.close(error instanceof GatewayError ? error.status : aborted ? 499 : 500, aborted);
  }

  /** Writes the record; later calls do nothing. */
  close(status: number, aborted = false): void {
    if (this.#closed) return;
    this.#closed = true;
    const s = this.#subject;
    const usage = this.#usage;
    s.store.recordUsage({
      keyId: s.keyId,
      model: s.model,
      upstream: s.upstream,
      route: s.route,
      status,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cachedTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      reasoningTokens: usage.reasoningTokens,
      images: this.#images,
      cost: costOf(s.pricing, usage, this.#images),
      latencyMs: Date.now() - s.started,
      stream: s.stream,
      aborted,
      time: s.started,
    }).catch(s.onError);
  }
}

/** Opens the meter of a request by `keyId` to `model` on `route`. */
export function openMeter(
  deps: { store: Store; log: { error(message: string, fields?: Record<string, unknown>): void } },
  keyId: string,
  model: { id: string; provider: { name: string }; pricing: Pricing },
  route: string,
  stream: boolean,
): Meter {
  return new Meter({
    store: deps.store,
    keyId,
    model: model.id,
    upstream: model.provider.name,
    route,
    pricing: model.pricing,
    stream,
    started: Date.now(),
    onError: (error) => deps.log.error("ledger write failed", { error: String(error) }),
  });
}
