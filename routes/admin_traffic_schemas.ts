/**
 * The admin API's views of traffic: the ledger's requests, each with its upstream calls
 * (`GET /admin/v1/requests`), and each deployment's health as this process sees it
 * (`GET /admin/v1/deployments`).
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { DeploymentState } from "../gateway/health.ts";
import { ATTEMPT_RESULTS, OUTCOMES, REQUESTS_LIMIT } from "../store/store.ts";
import { AdminUsageQuery } from "./admin_schemas.ts";

const maybeTime = z.string().nullable().openapi({ description: "RFC 3339, or null." });

/** What each deployment state means. */
const STATE_TEXT: Record<DeploymentState, string> = {
  healthy: "takes traffic",
  cooling: "rests after retryable failures in a row, or for the provider's retry-after",
  probing: "its cool-down is over: it takes one request at a time until one succeeds",
};
// Every state, from the exhaustive record above.
const STATES = Object.keys(STATE_TEXT) as [DeploymentState, ...DeploymentState[]];

const limitError = { error: `limit is a whole number from 1 to ${REQUESTS_LIMIT.max}` };
const limit = z.coerce.number(limitError).int(limitError).min(1, limitError)
  .max(REQUESTS_LIMIT.max, limitError);

/** `GET /admin/v1/requests`. */
export const AdminRequestsQuery = z.object({
  start: AdminUsageQuery.shape.start,
  end: AdminUsageQuery.shape.end,
  key_id: AdminUsageQuery.shape.key_id,
  team: AdminUsageQuery.shape.team,
  model: z.string().optional().openapi({
    description: "Only requests for this model id, as asked for (after aliases) or as served " +
      "(a fallback).",
  }),
  outcome: z.enum(OUTCOMES).optional().openapi({ description: "Only requests that ended so." }),
  request_id: z.string().optional().openapi({
    description: "Only this request (the `x-request-id` its client was sent).",
  }),
  limit: limit.optional().openapi({
    description: `How many, newest first: 1 to ${REQUESTS_LIMIT.max}. Default ` +
      `${REQUESTS_LIMIT.default}.`,
    example: 20,
  }),
});

/** One upstream call of a request. */
const AttemptObject = z.object({
  deployment: z.string().openapi({
    description: "The deployment called: `<model id or pattern>@<provider>`.",
    example: "claude-sonnet-5@anthropic",
  }),
  provider: z.string(),
  model: z.string().openapi({ description: "The catalog model: the requested one or a fallback." }),
  status: z.number().int().openapi({
    description: "The upstream's HTTP status; 0 when none came (no connection, timeout, abort).",
  }),
  result: z.enum(ATTEMPT_RESULTS).openapi({
    description: "`ok`: its answer went to the client (whatever its status); otherwise why the " +
      "gateway gave up on it and tried the next deployment or fallback, or answered the error.",
  }),
  ms: z.number().openapi({
    description: "Milliseconds from its start to its response headers or its failure.",
  }),
}).openapi("AdminRequestAttempt");

/** One request, as the ledger recorded it when it ended. */
const RequestObject = z.object({
  request_id: z.string().openapi({ description: "The `x-request-id` its client was sent." }),
  key_id: z.string(),
  model: z.string().openapi({ description: "The model asked for, after aliases." }),
  served_model: z.string().openapi({
    description: "The catalog model that answered (a fallback's id after a fallback).",
  }),
  provider: z.string().openapi({
    description: 'The last attempt\'s provider ("" when refused before any).',
  }),
  route: z.string().openapi({ example: "/v1/messages" }),
  status: z.number().int().openapi({
    description: "The status the client got (499: it left before any response).",
  }),
  outcome: z.enum(OUTCOMES),
  attempts: z.number().int().openapi({ description: "Upstream calls made." }),
  attempt_log: z.array(AttemptObject).openapi({
    description: "Each upstream call in order; empty for requests refused before any, and for " +
      "requests recorded before gatehouse kept it.",
  }),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost: z.number().openapi({ description: "US dollars, at the served model's prices." }),
  latency_ms: z.number(),
  first_byte_ms: z.number().nullable().openapi({
    description: "Arrival to the first byte sent to the client; null when none was.",
  }),
  stream: z.boolean(),
  time: z.string().openapi({ description: "When it arrived, RFC 3339." }),
}).openapi("AdminRequest");

/** `GET /admin/v1/requests`. */
export const AdminRequestList = z.object({
  object: z.literal("list"),
  data: z.array(RequestObject),
}).openapi("AdminRequestList");

/** One deployment, with its health as this gateway process sees it. */
const DeploymentObject = z.object({
  id: z.string().openapi({
    description: "`<model id or pattern>@<provider>` (`#<n>` added when a model lists one " +
      "provider twice).",
    example: "gpt-5@openai",
  }),
  model: z.string().nullable().openapi({ description: "The catalog id; null for a pattern's." }),
  pattern: z.string().nullable().openapi({ description: "The pattern; null for a model's." }),
  provider: z.string(),
  upstream_id: z.string().openapi({ description: "The model id sent to the provider." }),
  weight: z.number().int().openapi({ description: "Its share of the model's traffic." }),
  listed: z.boolean().openapi({ description: "Whether GET /v1/models shows its model." }),
  state: z.enum(STATES).openapi({
    description: STATES.map((state) => `\`${state}\`: ${STATE_TEXT[state]}.`).join(" "),
  }),
  in_flight: z.number().int().openapi({ description: "Upstream calls running on it." }),
  consecutive_failures: z.number().int().openapi({
    description:
      "Retryable failures counted towards the cool-down since its last success (one that another call's answer overtook is not counted).",
  }),
  recent: z.object({
    window_seconds: z.number().int(),
    requests: z.number().int().openapi({ description: "Upstream calls in the window." }),
    errors: z.number().int().openapi({ description: "Of which failed (retryable failures)." }),
    error_rate: z.number().openapi({ description: "errors / requests; 0 with no requests." }),
  }),
  cooldown_until: maybeTime.openapi({ description: "When its cool-down ends, while cooling." }),
  last_error: z.string().nullable().openapi({ description: "Its last failure, or null." }),
}).openapi("AdminDeployment");

/** `GET /admin/v1/deployments`. */
export const AdminDeploymentList = z.object({
  object: z.literal("list"),
  data: z.array(DeploymentObject),
}).openapi("AdminDeploymentList");
