/**
 * The admin API's answers behind the dashboard: the ledger as a time series
 * (`GET /admin/v1/usage/series`, aggregated by the database) and the gateway's live state
 * (`GET /admin/v1/status`).
 * @module
 */
import { z } from "@hono/zod-openapi";
import { SERIES_NOT_ERRORS } from "../store/store.ts";

/** The ranges a series covers, each with its bucket: hours for a day, quarter days for a week,
 * days for a month (a few dozen points each). */
export const SERIES_RANGES = {
  "24h": { buckets: 24, bucketMs: 3_600_000 },
  "7d": { buckets: 28, bucketMs: 6 * 3_600_000 },
  "30d": { buckets: 30, bucketMs: 86_400_000 },
} as const;

/** One of {@link SERIES_RANGES}. */
export type SeriesRange = keyof typeof SERIES_RANGES;

const RANGE_NAMES = Object.keys(SERIES_RANGES) as [SeriesRange, ...SeriesRange[]];

/** `GET /admin/v1/usage/series`. */
export const AdminSeriesQuery = z.object({
  range: z.enum(RANGE_NAMES).optional().openapi({
    description: "The window up to now: 24h (hourly buckets), 7d (6-hour buckets) or 30d " +
      "(daily buckets). Buckets are aligned to UTC; the last one is the current one. Default 24h.",
    example: "7d",
  }),
  group_by: z.enum(["model", "key", "team"]).optional().openapi({
    description: "What spend, tokens and requests are split by: the model that served " +
      '(default), the key id, or the key\'s current team (`""` for keys without one). The ' +
      "eight largest groups by spend keep their name; the rest are summed as `null`.",
  }),
});

const percentiles = z.object({
  p50: z.number().nullable(),
  p95: z.number().nullable(),
});

const perBucket = (what: string) =>
  z.array(z.number()).openapi({ description: `${what}, one per bucket.` });

/** The `GET /admin/v1/usage/series` answer. */
export const AdminSeries = z.object({
  object: z.literal("usage_series"),
  range: z.enum(RANGE_NAMES),
  group_by: z.enum(["model", "key", "team"]),
  start: z.string().openapi({ description: "RFC 3339: the first bucket's start." }),
  end: z.string().openapi({ description: "RFC 3339: the last bucket's end (exclusive)." }),
  bucket_seconds: z.number().int(),
  buckets: z.array(z.object({
    start: z.string().openapi({ description: "RFC 3339." }),
    requests: z.number().int(),
    errors: z.number().int().openapi({
      description: `Requests whose outcome is neither ${SERIES_NOT_ERRORS.join(" nor ")}.`,
    }),
    cost: z.number().openapi({ description: "US dollars." }),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    latency_ms: percentiles.openapi({
      description: "Nearest-rank percentiles of the whole request's time, over the requests " +
        "that called an upstream (null: none in the bucket).",
    }),
    ttft_ms: percentiles.openapi({
      description: "The same of the time to the first byte sent to the client.",
    }),
  })).openapi({ description: "Every bucket, in time order, empty ones included." }),
  series: z.array(z.object({
    group: z.string().nullable().openapi({
      description: "Model id, key id or team id; null: every group past the eighth, summed.",
    }),
    requests: perBucket("Requests"),
    cost: perBucket("US dollars"),
    input_tokens: perBucket("Input tokens"),
    output_tokens: perBucket("Output tokens"),
  })).openapi({ description: "The groups, largest spend first (null last)." }),
}).openapi("AdminUsageSeries");

/** The `GET /admin/v1/status` answer. */
export const AdminStatus = z.object({
  object: z.literal("status"),
  in_flight: z.number().int().openapi({
    description: "Requests this gateway process is running now (with --workers, the worker " +
      "that answered: the docs host's dashboard is served by the first).",
  }),
  streams_open: z.number().int().openapi({
    description: "Of those, streamed answers open to their clients.",
  }),
  draining: z.boolean().openapi({ description: "Shutting down: new model requests are refused." }),
  store: z.enum(["sqlite", "postgres"]),
  time: z.string().openapi({ description: "RFC 3339: when this was read." }),
}).openapi("AdminStatus");
