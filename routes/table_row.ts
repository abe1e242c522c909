/**
 * How a row of the route table (`table.ts`) is written: the row builder, which adds the error
 * responses in the row's envelope and names a `/v1` route's bare twin, and the helpers rows use
 * for their bodies and responses. Apart from the table so that the admin rows
 * (`admin_routes.ts`) are built the same way without an import cycle.
 * @module
 */
import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { Security } from "./security.ts";
import { AnthropicError, OpenAIError } from "./schemas.ts";

/** Which error envelope a route speaks. */
export type Envelope = "openai" | "anthropic";

/** The prefix of the canonical API paths. Every route under it is also served without it: its
 * bare twin (`/v1/models` and `/models`). */
export const API_PREFIX = "/v1";

/** The extension field naming an operation's bare twin in the OpenAPI document. */
export const BARE_PATH_FIELD = "x-gatehouse-bare-path";

/** One row of the table. */
export interface RouteSpec {
  /** The route; its `security` says which key it takes (`security.ts`; empty: none). */
  route: RouteConfig & { security: Security };
  /** The bare twin (`/models`), derived from the canonical path; null outside `/v1`. */
  bare: string | null;
  envelope: Envelope;
}

/** A route's definition as a row writes it: `security` is required, since auth reads it. */
export type RowConfig = Omit<RouteConfig, "path" | "security"> & { security: Security };

/** What each error status means, unless a row says otherwise. */
const ERROR_TEXT: Record<number, string> = {
  400:
    "Malformed JSON, a schema violation (the message names the field path), or an endpoint-type mismatch.",
  401:
    "Missing, empty, malformed, placeholder or unknown API key, or one that was revoked, expired " +
    "(code expired_api_key) or rotated past its grace period; the message says which and when.",
  403:
    "The key's or its team's `models` policy does not allow this model (code model_not_allowed).",
  404: "Model not in the catalog (GET /v1/models lists the valid ids).",
  405: "Wrong method: the route takes POST only (see the Allow header).",
  413: "Body over GATEHOUSE_MAX_BODY.",
  426: "WebSocket upgrade requested; this route takes plain HTTP POST.",
  429:
    "A limit of the key or its team: rpm, tpm or max_parallel (code rate_limit_exceeded), or a " +
    "budget (OpenAI type insufficient_quota; Anthropic rate_limit_error), with retry-after; or " +
    "the provider's own rate limit, its Retry-After forwarded. See the docs' Keys, limits and " +
    "budgets page.",
  502: "The provider failed or rejected the gateway's own credential.",
  503: "The model's provider has no credential configured.",
};

/**
 * Builds a row: the error responses in the row's envelope are added to `responses` (described
 * by `descriptions` where given, else by the common text), and a `/v1` route names its bare twin
 * in the document. Generic like `createRoute`, so the app's handlers keep their typed responses.
 */
export function row<P extends string, R extends RowConfig & { path: P }>(
  envelope: Envelope,
  errorStatuses: number[],
  config: R,
  descriptions: Record<number, string> = {},
) {
  const bare = config.path.startsWith(`${API_PREFIX}/`)
    ? config.path.slice(API_PREFIX.length)
    : null;
  const route = createRoute<P, R>({
    ...config,
    responses: { ...config.responses, ...errors(envelope, errorStatuses, descriptions) },
    ...(bare === null ? {} : { [BARE_PATH_FIELD]: bare }),
  });
  return { route, bare, envelope };
}

function errors(envelope: Envelope, statuses: number[], descriptions: Record<number, string>) {
  const schema = envelope === "anthropic" ? AnthropicError : OpenAIError;
  return Object.fromEntries(statuses.map((s) => [s, {
    description: descriptions[s] ?? ERROR_TEXT[s] ?? "Error",
    content: { "application/json": { schema } },
  }]));
}

/** A JSON response. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A response that is JSON, or server-sent events when the request asked to stream. */
export const sse = (description: string) => ({
  description,
  content: {
    "application/json": { schema: z.looseObject({}) },
    "text/event-stream": { schema: z.string().openapi({ description: "Server-sent events." }) },
  },
});

/** A JSON request body with a documented example; the generated contract tests send it. */
export const body = <T extends z.ZodType>(schema: T, example: Record<string, unknown>) => ({
  body: { required: true, content: { "application/json": { schema, example } } },
});
