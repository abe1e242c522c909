/**
 * `GET /v1/usage`: the calling key's ledger totals over a window, optionally grouped, with its
 * policy, where its budgets stand and its rate limits now (`usage_limits.ts`).
 * @module
 */
import type { Context } from "hono";
import { invalidRequest } from "../../core/errors.ts";
import { parseUtcTime } from "../../core/utc_time.ts";
import type { Admitter } from "../../gateway/admission.ts";
import type { Store, UsageTotals } from "../../store/store.ts";
import type { AppEnv } from "../env.ts";
import { usageLimits } from "./usage_limits.ts";

const DAY = 86_400_000;

/** Parses an RFC 3339 date / date-time (UTC when it names no offset) or unix seconds; null when
 * absent. */
export function parseInstant(value: string | undefined, field: string): number | null {
  if (value === undefined || value === "") return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.floor(Number(value) * 1000);
  const ms = parseUtcTime(value);
  if (ms !== null) return ms;
  throw invalidRequest(
    `${field}="${value}" is not a time: use a date (2026-11-01), an RFC 3339 date-time, or unix seconds.`,
    field,
  );
}

/** A report's window `[start, end)` from its query (default: the 30 days up to now). */
export function reportWindow(query: { start?: string; end?: string }): {
  start: number;
  end: number;
} {
  // "now" must include a request recorded this very millisecond.
  const end = parseInstant(query.end, "end") ?? Date.now() + 1;
  const start = parseInstant(query.start, "start") ?? end - 30 * DAY;
  if (start >= end) {
    throw invalidRequest(
      `start must be before end (got ${new Date(start).toISOString()} ≥ ${
        new Date(end).toISOString()
      }).`,
      "start",
    );
  }
  return { start, end };
}

/** Ledger totals in their wire form (dollars rounded to a millionth). */
export function totalsWire(t: UsageTotals) {
  return {
    requests: t.requests,
    input_tokens: t.inputTokens,
    output_tokens: t.outputTokens,
    cached_tokens: t.cachedTokens,
    cache_write_tokens: t.cacheWriteTokens,
    reasoning_tokens: t.reasoningTokens,
    images: t.images,
    cost: Math.round(t.cost * 1e6) / 1e6,
    outcomes: t.outcomes,
  };
}

/** The usage handler. A key sees only its own usage; `admitter` tells where its limits stand. */
export function usageHandler(store: Store, admitter: Admitter | undefined) {
  return async function usage(c: Context<AppEnv>) {
    const query = c.req.query();
    const { start, end } = reportWindow(query);
    const groupBy: "model" | "day" | undefined =
      query.group_by === "model" || query.group_by === "day" ? query.group_by : undefined;
    const key = c.get("key");
    const [report, status] = await Promise.all([
      store.usageReport({ keyId: key.id, start, end, groupBy }),
      admitter?.status?.(key) ?? null,
    ]);
    return c.json({
      object: "usage_report" as const,
      key_id: key.id,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      group_by: (groupBy ?? null) as "model" | "day" | null,
      totals: totalsWire(report.totals),
      ...(report.groups
        ? { groups: report.groups.map((g) => ({ key: g.key, ...totalsWire(g) })) }
        : {}),
      ...usageLimits(key, status),
    }, 200);
  };
}
