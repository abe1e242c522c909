/**
 * The SQL of {@link Store.usageSeries}, the same text for SQLite and Postgres (placeholders
 * `$n`; SQLite's store rewrites them to its numbered `?n`), and its result rows as a
 * {@link UsageSeries}.
 *
 * Two queries over the rows of `[start, end)` (found through the `usage_time` index):
 * - the sums: bucket and group, with the groups past the first `groups` (by spend) folded into
 *   one (`NULL`), so a thousand keys still make a few series;
 * - the percentiles: SQLite has no percentile function, so both dialects rank each bucket's rows
 *   with `ROW_NUMBER()` and count them with `COUNT(*)` over the same window, and take the row at
 *   the nearest rank (`ceil(p * n)`, in integer arithmetic: `(n + 1) / 2`, `(95 * n + 99) / 100`).
 * @module
 */
import type { Cells } from "./row_cells.ts";
import {
  SERIES_GROUPS,
  SERIES_NOT_ERRORS,
  type SeriesCell,
  type SeriesGroupBy,
  type SeriesQuery,
  type SeriesStats,
  type UsageSeries,
} from "./store.ts";

/** The group key of each grouping, over `usage` left-joined to its key as `k`. */
const GROUP_KEY: Record<SeriesGroupBy, string> = {
  model: "CASE WHEN usage.served_model = '' THEN usage.model ELSE usage.served_model END",
  key: "usage.key_id",
  team: "COALESCE(k.team, '')",
};

const NOT_ERRORS = SERIES_NOT_ERRORS.map((o) => `'${o}'`).join(", ");

/** The bucket of a row: explicit integer casts, as SQLite binds JS numbers as REAL. */
const BUCKET = "(usage.time - CAST($1 AS BIGINT)) / CAST($2 AS BIGINT)";
const RANGE = "usage.time >= CAST($1 AS BIGINT) AND usage.time < CAST($3 AS BIGINT)";

/** The sums per bucket and group; arguments: start, bucket, end, groups. One pass over the
 * rows into (bucket, group) cells; the named groups are picked from those cells. */
export function seriesSumsSql(groupBy: SeriesGroupBy): string {
  const join = groupBy === "team" ? "LEFT JOIN api_keys k ON k.id = usage.key_id" : "";
  return `
    WITH cells AS (
      SELECT ${BUCKET} AS bucket, ${GROUP_KEY[groupBy]} AS g, COUNT(*) AS requests,
        SUM(CASE WHEN usage.outcome IN (${NOT_ERRORS}) THEN 0 ELSE 1 END) AS errors,
        SUM(usage.cost) AS cost, SUM(usage.input_tokens) AS input_tokens,
        SUM(usage.output_tokens) AS output_tokens
      FROM usage ${join}
      WHERE ${RANGE}
      GROUP BY 1, 2
    ), named AS (
      SELECT g FROM cells GROUP BY g ORDER BY SUM(cost) DESC, SUM(requests) DESC, g
      LIMIT CAST($4 AS BIGINT)
    )
    SELECT bucket, CASE WHEN g IN (SELECT g FROM named) THEN g END AS group_key,
      SUM(requests) AS requests, SUM(errors) AS errors, SUM(cost) AS cost,
      SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens
    FROM cells
    GROUP BY 1, 2`;
}

/** The nearest-rank p50 and p95 of `column` per bucket over the CTE `timed`, as a CTE named
 * `name` with columns `bucket`, `<prefix>_p50`, `<prefix>_p95`. */
function percentilesCte(name: string, column: string, prefix: string): string {
  return `${name}_ranked AS (
      SELECT bucket, ${column} AS v,
        ROW_NUMBER() OVER (PARTITION BY bucket ORDER BY ${column}) AS r,
        COUNT(*) OVER (PARTITION BY bucket) AS n
      FROM timed WHERE ${column} IS NOT NULL
    ), ${name} AS (
      SELECT bucket, MAX(CASE WHEN r = (n + 1) / 2 THEN v END) AS ${prefix}_p50,
        MAX(CASE WHEN r = (95 * n + 99) / 100 THEN v END) AS ${prefix}_p95
      FROM ${name}_ranked GROUP BY bucket
    )`;
}

/** The percentiles per bucket; arguments: start, bucket, end. Latency and time to first byte
 * are ranked apart (the rows without a first byte left out of the second); measured on 100,000
 * rows, this is faster in SQLite than one query ranking both with shared partitions. */
export const SERIES_STATS_SQL = `
  WITH timed AS (
    SELECT ${BUCKET} AS bucket, usage.latency_ms AS latency_ms,
      usage.first_byte_ms AS first_byte_ms
    FROM usage
    WHERE ${RANGE} AND usage.attempts > 0
  ), ${percentilesCte("latency", "latency_ms", "latency")},
    ${percentilesCte("first_byte", "first_byte_ms", "first_byte")}
  SELECT latency.bucket AS bucket, latency_p50, latency_p95, first_byte_p50, first_byte_p95
  FROM latency LEFT JOIN first_byte ON first_byte.bucket = latency.bucket`;

/** The arguments of both queries (the stats query takes the first three). */
export function seriesArgs(query: SeriesQuery): [number, number, number, number] {
  if (!(query.bucketMs >= 1)) throw new Error(`a series bucket must be at least 1 ms`);
  const groups = Math.min(
    Math.max(Math.floor(query.groups ?? SERIES_GROUPS.default), 1),
    SERIES_GROUPS.max,
  );
  return [
    Math.floor(query.start),
    Math.floor(query.bucketMs),
    Math.floor(query.end),
    groups,
  ];
}

/** The two queries' rows as a series: groups by spend (the folded rest last), cells by bucket
 * then group order, stats by bucket. */
export function seriesFrom<R>(sums: R[], stats: R[], cells: Cells<R>): UsageSeries {
  const seriesCells: SeriesCell[] = sums.map((row) => ({
    bucket: cells.num(row, "bucket"),
    group: cells.textOrNull(row, "group_key"),
    requests: cells.num(row, "requests"),
    errors: cells.num(row, "errors"),
    cost: cells.num(row, "cost"),
    inputTokens: cells.num(row, "input_tokens"),
    outputTokens: cells.num(row, "output_tokens"),
  }));
  const spend = new Map<string | null, number>();
  for (const c of seriesCells) spend.set(c.group, (spend.get(c.group) ?? 0) + c.cost);
  const groups = [...spend.keys()].sort((a, b) => {
    if (a === null || b === null) return a === null ? 1 : -1;
    return (spend.get(b) ?? 0) - (spend.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0);
  });
  const order = new Map(groups.map((g, i) => [g, i]));
  seriesCells.sort((a, b) =>
    a.bucket - b.bucket || (order.get(a.group) ?? 0) - (order.get(b.group) ?? 0)
  );
  const seriesStats: SeriesStats[] = stats.map((row) => ({
    bucket: cells.num(row, "bucket"),
    latencyP50: cells.numOrNull(row, "latency_p50"),
    latencyP95: cells.numOrNull(row, "latency_p95"),
    firstByteP50: cells.numOrNull(row, "first_byte_p50"),
    firstByteP95: cells.numOrNull(row, "first_byte_p95"),
  })).sort((a, b) => a.bucket - b.bucket);
  return { groups, cells: seriesCells, stats: seriesStats };
}
