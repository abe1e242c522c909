/**
 * The route table: every route once, as a `@hono/zod-openapi` definition. From this one table
 * come the handlers (`app.ts`), the bare twins (`bare_path.ts`), the route errors and the 404's
 * list of routes (`guard.ts`), which key each route takes (its `security`, read by `auth.ts`),
 * the OpenAPI document (`openapi/document.ts`) and the generated contract tests
 * (`tests/contract_test.ts`).
 * @module
 */
import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import { BEARER, BEARER_OR_API_KEY_HEADER, PUBLIC, type Security } from "./security.ts";
import {
  AnthropicError,
  HealthSchema,
  OpenAIError,
  RootSchema,
  UsageQuerySchema,
  UsageReportSchema,
} from "./schemas.ts";
import {
  ChatRequestBody,
  CountTokensBody,
  ImagesRequestBody,
  MessagesRequestBody,
  ResponsesRequestBody,
} from "./bodies.ts";
import {
  AnthropicModelList,
  AnthropicModelObject,
  OpenAIModelList,
  OpenAIModelObject,
} from "../catalog/listing_schema.ts";

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
type RowConfig = Omit<RouteConfig, "path" | "security"> & { security: Security };

/** Builds a row: the error responses in the row's envelope are added to `responses`, and a `/v1`
 * route names its bare twin in the document. Generic like `createRoute`, so the app's handlers
 * keep their typed responses. */
function row<P extends string, R extends RowConfig & { path: P }>(
  envelope: Envelope,
  errorStatuses: number[],
  config: R,
) {
  const bare = config.path.startsWith(`${API_PREFIX}/`)
    ? config.path.slice(API_PREFIX.length)
    : null;
  const route = createRoute<P, R>({
    ...config,
    responses: { ...config.responses, ...errors(envelope, errorStatuses) },
    ...(bare === null ? {} : { [BARE_PATH_FIELD]: bare }),
  });
  return { route, bare, envelope };
}

const errors = (envelope: Envelope, statuses: number[]) => {
  const schema = envelope === "anthropic" ? AnthropicError : OpenAIError;
  const text: Record<number, string> = {
    400:
      "Malformed JSON, a schema violation (the message names the field path), or an endpoint-type mismatch.",
    401: "Missing, empty, malformed, placeholder or unknown API key; the message says which.",
    404: "Model not in the catalog (GET /v1/models lists the valid ids).",
    405: "Wrong method: the route takes POST only (see the Allow header).",
    413: "Body over GATEHOUSE_MAX_BODY.",
    426: "WebSocket upgrade requested; this route takes plain HTTP POST.",
    429: "Upstream rate limit; Retry-After is forwarded.",
    502: "The provider failed or rejected the gateway's own credential.",
    503: "The model's provider has no credential configured.",
  };
  return Object.fromEntries(statuses.map((s) => [s, {
    description: text[s] ?? "Error",
    content: { "application/json": { schema } },
  }]));
};

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

const sse = (description: string) => ({
  description,
  content: {
    "application/json": { schema: z.looseObject({}) },
    "text/event-stream": { schema: z.string().openapi({ description: "Server-sent events." }) },
  },
});

/** A JSON request body with a documented example; the generated contract tests send it. */
const body = <T extends z.ZodType>(schema: T, example: Record<string, unknown>) => ({
  body: { required: true, content: { "application/json": { schema, example } } },
});

/** Every route. Keys name the handlers in `app.ts`. */
export const routes = {
  listModels: row("openai", [401], {
    method: "get",
    path: "/v1/models",
    operationId: "listModels",
    tags: ["Models"],
    summary: "List the catalog's models",
    description:
      "OpenAI list shape; the Anthropic shape when the request carries an `anthropic-version` header (Claude Code discovery calls `GET /v1/models?limit=1000`).",
    security: BEARER_OR_API_KEY_HEADER,
    request: {
      query: z.object({
        limit: z.string().optional().openapi({
          description: "Anthropic shape: page size (1-1000, default 20).",
        }),
        after_id: z.string().optional(),
        before_id: z.string().optional(),
      }),
    },
    responses: {
      200: {
        description: "The catalog.",
        content: {
          "application/json": { schema: z.union([OpenAIModelList, AnthropicModelList]) },
        },
      },
    },
  }),
  getModel: row("openai", [401, 404], {
    method: "get",
    path: "/v1/models/{id}",
    operationId: "getModel",
    tags: ["Models"],
    summary: "Describe one model (aliases resolved)",
    security: BEARER_OR_API_KEY_HEADER,
    request: { params: z.object({ id: z.string().openapi({ example: "gpt-5.5" }) }) },
    responses: {
      200: {
        description: "The model.",
        content: {
          "application/json": { schema: z.union([OpenAIModelObject, AnthropicModelObject]) },
        },
      },
    },
  }),
  chatCompletions: row("openai", [400, 401, 404, 405, 413, 429, 502, 503], {
    method: "post",
    path: "/v1/chat/completions",
    operationId: "createChatCompletion",
    tags: ["Chat Completions"],
    summary: "OpenAI Chat Completions, for every catalog model",
    security: BEARER,
    request: body(ChatRequestBody, {
      model: "gpt-5.5",
      messages: [{ role: "user", content: "Say hello." }],
    }),
    responses: {
      200: sse("A chat.completion, or chat.completion.chunk events when `stream` is true."),
    },
  }),
  responses: row("openai", [400, 401, 404, 405, 413, 426, 429, 502, 503], {
    method: "post",
    path: "/v1/responses",
    operationId: "createResponse",
    tags: ["Responses"],
    summary: "OpenAI Responses, for every catalog model (what Codex speaks)",
    security: BEARER,
    request: body(ResponsesRequestBody, { model: "gpt-5.5", input: "Say hello." }),
    responses: {
      200: sse("A response object, or response.* events when `stream` is true."),
    },
  }),
  messages: row("anthropic", [400, 401, 404, 405, 413, 429, 502, 503], {
    method: "post",
    path: "/v1/messages",
    operationId: "createMessage",
    tags: ["Messages"],
    summary: "Anthropic Messages, for every catalog model (what Claude Code speaks)",
    security: BEARER_OR_API_KEY_HEADER,
    request: body(MessagesRequestBody, {
      model: "claude-sonnet-5",
      max_tokens: 256,
      messages: [{ role: "user", content: "Say hello." }],
    }),
    responses: {
      200: sse("A message, or message_* events when `stream` is true."),
    },
  }),
  countTokens: row("anthropic", [400, 401, 404, 405, 413, 502, 503], {
    method: "post",
    path: "/v1/messages/count_tokens",
    operationId: "countMessageTokens",
    tags: ["Messages"],
    summary: "Count the input tokens of a Messages request",
    security: BEARER_OR_API_KEY_HEADER,
    request: body(CountTokensBody, {
      model: "claude-sonnet-5",
      messages: [{ role: "user", content: "Say hello." }],
    }),
    responses: {
      200: json(z.object({ input_tokens: z.number().int() }).openapi("TokenCount"), "The count."),
    },
  }),
  imagesGenerations: row("openai", [400, 401, 404, 405, 413, 429, 502, 503], {
    method: "post",
    path: "/v1/images/generations",
    operationId: "createImage",
    tags: ["Images"],
    summary: "OpenAI image generation",
    description:
      "The images come in one JSON answer. Streaming image generation is not supported: a body " +
      "with `stream: true` is refused with 400 (drop `stream`).",
    security: BEARER,
    request: body(ImagesRequestBody, {
      model: "gpt-image-1",
      prompt: "A lighthouse at dusk",
      n: 1,
    }),
    responses: {
      200: json(
        z.looseObject({ created: z.number(), data: z.array(z.looseObject({})) }).openapi(
          "ImagesResponse",
        ),
        "The images.",
      ),
    },
  }),
  usage: row("openai", [400, 401], {
    method: "get",
    path: "/v1/usage",
    operationId: "getUsage",
    tags: ["Usage"],
    summary: "The calling key's usage totals, optionally grouped by model or day",
    security: BEARER,
    request: { query: UsageQuerySchema },
    responses: {
      200: json(UsageReportSchema, "The report."),
    },
  }),
  root: row("openai", [], {
    method: "get",
    path: "/",
    operationId: "root",
    security: PUBLIC,
    tags: ["Health"],
    summary: "Identify the gateway (Claude Code probes HEAD / at start)",
    responses: { 200: json(RootSchema, "Who answers here.") },
  }),
  healthz: row("openai", [], {
    method: "get",
    path: "/healthz",
    operationId: "healthz",
    security: PUBLIC,
    tags: ["Health"],
    summary: "Liveness",
    responses: { 200: json(HealthSchema, "Alive.") },
  }),
  readyz: row("openai", [], {
    method: "get",
    path: "/readyz",
    operationId: "readyz",
    security: PUBLIC,
    tags: ["Health"],
    summary: "Readiness: the store answers",
    responses: { 200: json(HealthSchema, "Ready."), 503: json(HealthSchema, "Not ready.") },
  }),
  openapi: row("openai", [], {
    method: "get",
    path: "/openapi.json",
    operationId: "openapi",
    security: PUBLIC,
    tags: ["Health"],
    summary: "This OpenAPI 3.1 document",
    responses: { 200: json(z.looseObject({}), "The document.") },
  }),
} satisfies Record<string, RouteSpec>;

/** The table as a list. */
export const routeList: RouteSpec[] = Object.values(routes);
