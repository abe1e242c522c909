/**
 * Request bodies as the route table validates them at the boundary: the fields every path needs
 * (model, stream, the conversation's outer shape), loose so new client fields pass through. The
 * deep, field-by-field validation happens in each wire's `decode_request.ts` when a request is
 * translated; a same-protocol request is forwarded and the provider validates it.
 * @module
 */
import { z } from "@hono/zod-openapi";

const model = z.string().min(1).openapi({
  description: "A catalog id or alias (GET /v1/models), or an id matched by a catalog pattern.",
  example: "gpt-5.5",
});

/** `POST /v1/chat/completions`. */
export const ChatRequestBody = z.looseObject({
  model,
  messages: z.array(z.looseObject({ role: z.string() })).min(1),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
  max_tokens: z.number().int().positive().nullable().optional(),
  max_completion_tokens: z.number().int().positive().nullable().optional(),
}).openapi("ChatCompletionRequest", {
  description: "OpenAI Chat Completions request; fields not listed are forwarded or translated.",
});

/** `POST /v1/messages`. */
export const MessagesRequestBody = z.looseObject({
  model,
  messages: z.array(z.looseObject({ role: z.string() })),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  stream: z.boolean().optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
}).openapi("MessagesRequest", {
  description: "Anthropic Messages request; fields not listed are forwarded or translated.",
});

/** `POST /v1/messages/count_tokens`. */
export const CountTokensBody = z.looseObject({
  model,
  messages: z.array(z.looseObject({ role: z.string() })),
  system: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
}).openapi("CountTokensRequest");

/** `POST /v1/responses`. */
export const ResponsesRequestBody = z.looseObject({
  model,
  input: z.union([z.string(), z.array(z.looseObject({}))]).optional(),
  instructions: z.string().nullable().optional(),
  stream: z.boolean().optional(),
  previous_response_id: z.string().nullable().optional(),
  store: z.boolean().nullable().optional(),
  tools: z.array(z.looseObject({ type: z.string() })).optional(),
}).openapi("ResponsesRequest", {
  description: "OpenAI Responses request; fields not listed are forwarded or translated.",
});

/** The refusal of `stream: true` on the images route. */
export const IMAGES_STREAM_REFUSAL =
  "streaming image generation is not supported by this gateway: drop `stream` (or send false) " +
  "and the images come in one JSON answer";

/** `POST /v1/images/generations`. `stream: true` is refused (400): the gateway reads an images
 * answer whole, to count the images it bills, so it could neither forward nor bill the partial
 * image events of a streamed one. */
export const ImagesRequestBody = z.looseObject({
  model,
  prompt: z.string().min(1),
  n: z.number().int().min(1).max(10).optional(),
  size: z.string().optional(),
  response_format: z.enum(["b64_json", "url"]).optional(),
  stream: z.literal(false, { error: IMAGES_STREAM_REFUSAL }).optional().openapi({
    description: "Only false: streaming image generation is not supported (400).",
  }),
}).openapi("ImagesRequest");
