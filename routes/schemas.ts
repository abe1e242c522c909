/**
 * Shared OpenAPI schemas of the route table: error envelopes, usage report, health.
 * Protocol request/response bodies live with their wire under `protocols/`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { type Outcome, OUTCOMES } from "../store/store.ts";

/** The OpenAI error envelope, used on every route except `/v1/messages*`. */
export const OpenAIError = z.object({
  error: z.object({
    message: z.string().openapi({ description: "What failed and what to do." }),
    type: z.string().openapi({ example: "invalid_request_error" }),
    param: z.string().nullable(),
    code: z.string().nullable().openapi({ example: "model_not_found" }),
  }),
}).openapi("OpenAIError");

/** The Anthropic error envelope, used on `/v1/messages*`. */
export const AnthropicError = z.object({
  type: z.literal("error"),
  error: z.object({
    type: z.string().openapi({ example: "not_found_error" }),
    message: z.string(),
  }),
}).openapi("AnthropicError");

/** Totals of a usage report. */
const UsageTotals = z.object({
  requests: z.number().int().openapi({ description: "Requests recorded, errors included." }),
  input_tokens: z.number().int().openapi({ description: "All input tokens, cached included." }),
  output_tokens: z.number().int().openapi({ description: "Output tokens, reasoning included." }),
  cached_tokens: z.number().int().openapi({ description: "Input tokens read from cache." }),
  cache_write_tokens: z.number().int().openapi({ description: "Input tokens written to cache." }),
  reasoning_tokens: z.number().int().openapi({ description: "Output tokens spent reasoning." }),
  images: z.number().int().openapi({ description: "Images generated." }),
  cost: z.number().openapi({ description: "US dollars, from the catalog prices." }),
  outcomes: z.object(
    Object.fromEntries(OUTCOMES.map((o) => [o, z.number().int()])) as Record<
      Outcome,
      z.ZodNumber
    >,
  ).openapi({
    description:
      "Requests per outcome: ok, upstream_error, upstream_cut, timeout, client_disconnect, " +
      "rejected, internal_error (every one present).",
  }),
});

/** The ledger part of the `GET /v1/usage` response (`handlers/usage_limits.ts` adds the key's
 * policy, budgets and rate limits to make the whole `UsageReport`). */
export const UsageLedgerReportSchema = z.object({
  object: z.literal("usage_report"),
  key_id: z.string().openapi({ description: "The calling key's id (never the secret)." }),
  start: z.string().openapi({ description: "Window start, RFC 3339, inclusive." }),
  end: z.string().openapi({ description: "Window end, RFC 3339, exclusive." }),
  group_by: z.enum(["model", "day"]).nullable(),
  totals: UsageTotals,
  groups: z.array(UsageTotals.extend({
    key: z.string().openapi({ description: "Model id, or UTC day as YYYY-MM-DD." }),
  })).optional(),
});

/** The `GET /v1/usage` query. */
export const UsageQuerySchema = z.object({
  start: z.string().optional().openapi({
    description: "Window start: RFC 3339 date or date-time, or unix seconds. Default: 30 days ago.",
    example: "2026-11-01",
  }),
  end: z.string().optional().openapi({
    description: "Window end (exclusive), same forms. Default: now.",
  }),
  group_by: z.enum(["model", "day"]).optional(),
});

/** Health and readiness bodies. */
export const HealthSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  checks: z.record(z.string(), z.string()).optional(),
}).openapi("Health");

/** The `GET /` body. */
export const RootSchema = z.object({
  name: z.literal("gatehouse"),
  api_base: z.string().openapi({ description: "Root address clients use; SDKs add /v1." }),
  openapi: z.string(),
  docs: z.string().nullable(),
}).openapi("Root");
