/**
 * The route table: every route once, as a `@hono/zod-openapi` definition. From this one table
 * come the handlers (`app.ts`), the bare twins (`bare_path.ts`), the OpenAPI document
 * (`openapi/document.ts`) and the generated contract tests (`tests/contract_test.ts`).
 * @module
 */
import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
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

/** One row of the table. */
export interface RouteSpec {
  route: RouteConfig;
  /** The bare twin (`/models`) rewritten to the canonical path, or null. */
  bare: string | null;
  envelope: Envelope;
  /** Needs a gatehouse key. */
  auth: boolean;
}

const BARE = "x-gatehouse-bare-path";

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

const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }];
const messagesSecurity: Array<Record<string, string[]>> = [{ bearerAuth: [] }, {
  apiKeyHeader: [],
}];

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
  listModels: {
    route: createRoute({
      method: "get",
      path: "/v1/models",
      operationId: "listModels",
      tags: ["Models"],
      summary: "List the catalog's models",
      description:
        "OpenAI list shape; the Anthropic shape when the request carries an `anthropic-version` header (Claude Code discovery calls `GET /v1/models?limit=1000`).",
      security: messagesSecurity,
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
        ...errors("openai", [401]),
      },
      [BARE]: "/models",
    }),
    bare: "/models",
    envelope: "openai",
    auth: true,
  },
  getModel: {
    route: createRoute({
      method: "get",
      path: "/v1/models/{id}",
      operationId: "getModel",
      tags: ["Models"],
      summary: "Describe one model (aliases resolved)",
      security: messagesSecurity,
      request: { params: z.object({ id: z.string().openapi({ example: "gpt-5.5" }) }) },
      responses: {
        200: {
          description: "The model.",
          content: {
            "application/json": { schema: z.union([OpenAIModelObject, AnthropicModelObject]) },
          },
        },
        ...errors("openai", [401, 404]),
      },
      [BARE]: "/models/{id}",
    }),
    bare: "/models/{id}",
    envelope: "openai",
    auth: true,
  },
  chatCompletions: {
    route: createRoute({
      method: "post",
      path: "/v1/chat/completions",
      operationId: "createChatCompletion",
      tags: ["Chat Completions"],
      summary: "OpenAI Chat Completions, for every catalog model",
      security,
      request: body(ChatRequestBody, {
        model: "gpt-5.5",
        messages: [{ role: "user", content: "Say hello." }],
      }),
      responses: {
        200: sse("A chat.completion, or chat.completion.chunk events when `stream` is true."),
        ...errors("openai", [400, 401, 404, 405, 413, 429, 502, 503]),
      },
      [BARE]: "/chat/completions",
    }),
    bare: "/chat/completions",
    envelope: "openai",
    auth: true,
  },
  responses: {
    route: createRoute({
      method: "post",
      path: "/v1/responses",
      operationId: "createResponse",
      tags: ["Responses"],
      summary: "OpenAI Responses, for every catalog model (what Codex speaks)",
      security,
      request: body(ResponsesRequestBody, { model: "gpt-5.5", input: "Say hello." }),
      responses: {
        200: sse("A response object, or response.* events when `stream` is true."),
        ...errors("openai", [400, 401, 404, 405, 413, 426, 429, 502, 503]),
      },
      [BARE]: "/responses",
    }),
    bare: "/responses",
    envelope: "openai",
    auth: true,
  },
  messages: {
    route: createRoute({
      method: "post",
      path: "/v1/messages",
      operationId: "createMessage",
      tags: ["Messages"],
      summary: "Anthropic Messages, for every catalog model (what Claude Code speaks)",
      security: messagesSecurity,
      request: body(MessagesRequestBody, {
        model: "claude-sonnet-5",
        max_tokens: 256,
        messages: [{ role: "user", content: "Say hello." }],
      }),
      responses: {
        200: sse("A message, or message_* events when `stream` is true."),
        ...errors("anthropic", [400, 401, 404, 405, 413, 429, 502, 503]),
      },
      [BARE]: "/messages",
    }),
    bare: "/messages",
    envelope: "anthropic",
    auth: true,
  },
  countTokens: {
    route: createRoute({
      method: "post",
      path: "/v1/messages/count_tokens",
      operationId: "countMessageTokens",
      tags: ["Messages"],
      summary: "Count the input tokens of a Messages request",
      security: messagesSecurity,
      request: body(CountTokensBody, {
        model: "claude-sonnet-5",
        messages: [{ role: "user", content: "Say hello." }],
      }),
      responses: {
        200: json(z.object({ input_tokens: z.number().int() }).openapi("TokenCount"), "The count."),
        ...errors("anthropic", [400, 401, 404, 405, 413, 502, 503]),
      },
      [BARE]: "/messages/count_tokens",
    }),
    bare: "/messages/count_tokens",
    envelope: "anthropic",
    auth: true,
  },
  imagesGenerations: {
    route: createRoute({
      method: "post",
      path: "/v1/images/generations",
      operationId: "createImage",
      tags: ["Images"],
      summary: "OpenAI image generation",
      security,
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
        ...errors("openai", [400, 401, 404, 405, 413, 429, 502, 503]),
      },
      [BARE]: "/images/generations",
    }),
    bare: "/images/generations",
    envelope: "openai",
    auth: true,
  },
  usage: {
    route: createRoute({
      method: "get",
      path: "/v1/usage",
      operationId: "getUsage",
      tags: ["Usage"],
      summary: "The calling key's usage totals, optionally grouped by model or day",
      security,
      request: { query: UsageQuerySchema },
      responses: {
        200: json(UsageReportSchema, "The report."),
        ...errors("openai", [400, 401]),
      },
      [BARE]: "/usage",
    }),
    bare: "/usage",
    envelope: "openai",
    auth: true,
  },
  root: {
    route: createRoute({
      method: "get",
      path: "/",
      operationId: "root",
      security: [],
      tags: ["Health"],
      summary: "Identify the gateway (Claude Code probes HEAD / at start)",
      responses: { 200: json(RootSchema, "Who answers here.") },
    }),
    bare: null,
    envelope: "openai",
    auth: false,
  },
  healthz: {
    route: createRoute({
      method: "get",
      path: "/healthz",
      operationId: "healthz",
      security: [],
      tags: ["Health"],
      summary: "Liveness",
      responses: { 200: json(HealthSchema, "Alive.") },
    }),
    bare: null,
    envelope: "openai",
    auth: false,
  },
  readyz: {
    route: createRoute({
      method: "get",
      path: "/readyz",
      operationId: "readyz",
      security: [],
      tags: ["Health"],
      summary: "Readiness: the store answers",
      responses: { 200: json(HealthSchema, "Ready."), 503: json(HealthSchema, "Not ready.") },
    }),
    bare: null,
    envelope: "openai",
    auth: false,
  },
  openapi: {
    route: createRoute({
      method: "get",
      path: "/openapi.json",
      operationId: "openapi",
      security: [],
      tags: ["Health"],
      summary: "This OpenAPI 3.1 document",
      responses: { 200: json(z.looseObject({}), "The document.") },
    }),
    bare: null,
    envelope: "openai",
    auth: false,
  },
} satisfies Record<string, RouteSpec>;

/** The table as a list. */
export const routeList: RouteSpec[] = Object.values(routes);

/** The extension field naming an operation's bare twin in the OpenAPI document. */
export const BARE_PATH_FIELD = BARE;
