/**
 * The route table: every route once, as a `@hono/zod-openapi` definition. From this one table
 * come the handlers (`app.ts`), the bare twins (`bare_path.ts`), the route errors and the 404's
 * list of routes (`guard.ts`), which key each route takes (its `security`, read by `auth.ts`),
 * the OpenAPI document (`openapi/document.ts`) and the generated contract tests
 * (`tests/contract_test.ts`). The admin rows are written in `admin_routes.ts` and spread in
 * here: one table. How a row is built is `table_row.ts`.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { ADMIN, BEARER, BEARER_OR_API_KEY_HEADER, PUBLIC } from "./security.ts";
import { HealthSchema, RootSchema, UsageQuerySchema } from "./schemas.ts";
import { UsageReportSchema } from "./handlers/usage_limits.ts";
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
import { body, json, type RouteSpec, row, sse } from "./table_row.ts";
import { adminRoutes } from "./admin_routes.ts";

export {
  API_PREFIX,
  BARE_PATH_FIELD,
  type Envelope,
  type RouteSpec,
  type RowConfig,
} from "./table_row.ts";

/** The `GET /readyz` body. */
const ReadinessSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  checks: z.object({
    store: z.string().openapi({ description: "`ok`, or the store's error." }),
    deployments: z.string().openapi({
      description: "`ok` while a deployment of a listed model (or pattern) can take a request.",
    }),
    limits: z.string().openapi({
      description: "Where rate limits, requests in flight and budgets are counted: `in process`, " +
        "shared between workers, shared through Redis, or counted locally while Redis is " +
        "unreachable (not ready only when GATEHOUSE_LIMITS_ON_REDIS_DOWN=reject refuses).",
    }),
  }),
  reasons: z.array(z.string()).optional().openapi({
    description: "Why not ready (503 only): the store's error, `shutting down: …`, each " +
      "deployment cooling down with the end of its cool-down (ISO 8601).",
  }),
}).openapi("Readiness");

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
  chatCompletions: row("openai", [400, 401, 403, 404, 405, 413, 429, 502, 503], {
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
  responses: row("openai", [400, 401, 403, 404, 405, 413, 426, 429, 502, 503], {
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
  messages: row("anthropic", [400, 401, 403, 404, 405, 413, 429, 502, 503], {
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
  countTokens: row("anthropic", [400, 401, 403, 404, 405, 413, 502, 503], {
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
  imagesGenerations: row("openai", [400, 401, 403, 404, 405, 413, 429, 502, 503], {
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
    summary: "Readiness: the store answers, not draining, a listed model's deployment is usable",
    responses: {
      200: json(ReadinessSchema, "Ready."),
      503: json(ReadinessSchema, "Not ready: `reasons` says why."),
    },
  }),
  metrics: row("openai", [401, 403, 404], {
    method: "get",
    path: "/metrics",
    operationId: "metrics",
    security: ADMIN,
    tags: ["Health"],
    summary: "Prometheus metrics (admin key; METRICS_PORT serves them without one)",
    description: "The instance's `gatehouse_*` series in the Prometheus text format: with " +
      "`--workers N`, every worker's, merged. Each instance exposes its own; the scraper adds " +
      "the `instance` label.",
    responses: {
      200: {
        description: "The series (`text/plain; version=0.0.4`).",
        content: {
          "text/plain": {
            schema: z.string().openapi({ description: "Prometheus text exposition format." }),
          },
        },
      },
    },
  }, {
    403:
      "The key is not an admin key: create one with `deno task keys create --name NAME --admin`.",
    404: "Metrics are off (GATEHOUSE_METRICS=off; code metrics_off).",
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
  ...adminRoutes,
} satisfies Record<string, RouteSpec>;

/** The table as a list. */
export const routeList: RouteSpec[] = Object.values(routes);
