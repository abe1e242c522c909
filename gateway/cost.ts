/**
 * What a request cost, from the catalog's prices.
 * @module
 */
import type { Pricing } from "../catalog/schema.ts";
import type { Usage } from "../core/response.ts";

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
