/**
 * The parts of a usage report every store shares: the sums each report row selects (each
 * dialect counting an outcome its own way), the group key of each grouping (each dialect naming
 * a UTC day its own way), and a report row as {@link UsageTotals}.
 * @module
 */
import { type Outcome, OUTCOMES, type UsageQuery, type UsageTotals } from "./store.ts";
import type { Cells } from "./row_cells.ts";

/** The sums of a report row: `countOutcome` is the dialect's count of the rows with one outcome,
 * `zeroCost` its literal for the cost of no rows. */
export function usageSums(countOutcome: (outcome: Outcome) => string, zeroCost: string): string {
  return `
  COUNT(*) AS requests,
  COALESCE(SUM(input_tokens), 0) AS input_tokens,
  COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cached_tokens), 0) AS cached_tokens,
  COALESCE(SUM(cache_write_tokens), 0) AS cache_write_tokens,
  COALESCE(SUM(reasoning_tokens), 0) AS reasoning_tokens,
  COALESCE(SUM(images), 0) AS images,
  COALESCE(SUM(cost), ${zeroCost}) AS cost,
  ${OUTCOMES.map((o) => `${countOutcome(o)} AS outcome_${o}`).join(",\n  ")}`;
}

/** The group key of each grouping; `day` is the dialect's UTC calendar day of a
 * unix-millisecond `time`, as `YYYY-MM-DD`. */
export function groupKeys(day: string): Record<NonNullable<UsageQuery["groupBy"]>, string> {
  return {
    model: "model",
    day,
    key: "key_id",
    team: "COALESCE((SELECT team FROM api_keys WHERE api_keys.id = usage.key_id), '')",
  };
}

/** A report row (the columns of {@link usageSums}) as totals. */
export function usageTotalsFrom<R>(row: R, cells: Cells<R>): UsageTotals {
  return {
    requests: cells.num(row, "requests"),
    inputTokens: cells.num(row, "input_tokens"),
    outputTokens: cells.num(row, "output_tokens"),
    cachedTokens: cells.num(row, "cached_tokens"),
    cacheWriteTokens: cells.num(row, "cache_write_tokens"),
    reasoningTokens: cells.num(row, "reasoning_tokens"),
    images: cells.num(row, "images"),
    cost: cells.num(row, "cost"),
    outcomes: Object.fromEntries(
      OUTCOMES.map((o) => [o, cells.num(row, `outcome_${o}`)]),
    ) as Record<Outcome, number>,
  };
}
