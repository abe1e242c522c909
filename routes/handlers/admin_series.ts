/**
 * `GET /admin/v1/usage/series`: the ledger over the last 24 hours, 7 days or 30 days in
 * UTC-aligned buckets, aggregated by the store (`Store.usageSeries`), laid out for charts: every
 * bucket (empty ones as zeros), and one array per group aligned with them.
 * @module
 */
import type { RouteHandler } from "@hono/zod-openapi";
import type { SeriesGroupBy, Store, UsageSeries } from "../../store/store.ts";
import { SERIES_RANGES, type SeriesRange } from "../admin_dashboard_schemas.ts";
import type { adminRoutes } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";

const iso = (time: number) => new Date(time).toISOString();
const dollars = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** The window of `range` at `now`: whole buckets, the last one holding `now`. */
export function seriesWindow(range: SeriesRange, now: number) {
  const { buckets, bucketMs } = SERIES_RANGES[range];
  const end = (Math.floor(now / bucketMs) + 1) * bucketMs;
  return { start: end - buckets * bucketMs, end, buckets, bucketMs };
}

/** A store series as the wire's buckets and per-group arrays. */
export function seriesWire(
  series: UsageSeries,
  window: ReturnType<typeof seriesWindow>,
) {
  const zeros = () => new Array<number>(window.buckets).fill(0);
  const buckets = Array.from({ length: window.buckets }, (_, i) => ({
    start: iso(window.start + i * window.bucketMs),
    requests: 0,
    errors: 0,
    cost: 0,
    input_tokens: 0,
    output_tokens: 0,
    latency_ms: { p50: null as number | null, p95: null as number | null },
    ttft_ms: { p50: null as number | null, p95: null as number | null },
  }));
  const groups = new Map(series.groups.map((group) => [group, {
    group,
    requests: zeros(),
    cost: zeros(),
    input_tokens: zeros(),
    output_tokens: zeros(),
  }]));
  for (const cell of series.cells) {
    const bucket = buckets[cell.bucket];
    const group = groups.get(cell.group);
    if (bucket === undefined || group === undefined) continue;
    bucket.requests += cell.requests;
    bucket.errors += cell.errors;
    bucket.cost += cell.cost;
    bucket.input_tokens += cell.inputTokens;
    bucket.output_tokens += cell.outputTokens;
    group.requests[cell.bucket] = cell.requests;
    group.cost[cell.bucket] = dollars(cell.cost);
    group.input_tokens[cell.bucket] = cell.inputTokens;
    group.output_tokens[cell.bucket] = cell.outputTokens;
  }
  for (const stats of series.stats) {
    const bucket = buckets[stats.bucket];
    if (bucket === undefined) continue;
    bucket.latency_ms = { p50: stats.latencyP50, p95: stats.latencyP95 };
    bucket.ttft_ms = { p50: stats.firstByteP50, p95: stats.firstByteP95 };
  }
  for (const bucket of buckets) bucket.cost = dollars(bucket.cost);
  return { buckets, series: [...groups.values()] };
}

/** The admin series handler; `now` is the clock (tests set it). */
export function adminSeriesHandler(
  store: Store,
  now: () => number = Date.now,
): RouteHandler<typeof adminRoutes.adminUsageSeries.route, AppEnv> {
  return async function adminUsageSeries(c) {
    const query = c.req.valid("query");
    const range = query.range ?? "24h";
    const groupBy: SeriesGroupBy = query.group_by ?? "model";
    const window = seriesWindow(range, now());
    const series = await store.usageSeries({ ...window, groupBy });
    return c.json({
      object: "usage_series" as const,
      range,
      group_by: groupBy,
      start: iso(window.start),
      end: iso(window.end),
      bucket_seconds: window.bucketMs / 1000,
      ...seriesWire(series, window),
    }, 200);
  };
}
