/**
 * Zod schemas of what a Chat Completions server returns: the non-streamed body and the stream
 * chunks. Tolerant on purpose (OpenAI-compatible servers differ in what they omit or null).
 * @module
 */
import { z } from "@hono/zod-openapi";
import { nullish } from "./schemas.ts";

/** `usage`. DeepSeek adds `prompt_cache_hit_tokens`; xAI counts reasoning outside
 * `completion_tokens` (see map_usage.ts). */
export const ChatUsageSchema = z.looseObject({
  prompt_tokens: nullish(z.number()),
  completion_tokens: nullish(z.number()),
  total_tokens: nullish(z.number()),
  prompt_tokens_details: nullish(z.looseObject({ cached_tokens: nullish(z.number()) })),
  completion_tokens_details: nullish(z.looseObject({ reasoning_tokens: nullish(z.number()) })),
  prompt_cache_hit_tokens: nullish(z.number()),
}).openapi("ChatCompletionUsage");

const ContentSchema = z.union([
  z.string(),
  z.array(z.looseObject({ type: z.string(), text: nullish(z.string()) })),
]);

/** A tool call of a response message, or one fragment of it in a stream delta. */
export const ChatToolCallOutSchema = z.looseObject({
  index: nullish(z.number()),
  id: nullish(z.string()),
  type: nullish(z.string()),
  function: nullish(z.looseObject({ name: nullish(z.string()), arguments: nullish(z.string()) })),
  custom: nullish(z.looseObject({ name: nullish(z.string()), input: nullish(z.string()) })),
});

const MessageFields = {
  role: nullish(z.string()),
  content: nullish(ContentSchema),
  refusal: nullish(z.string()),
  /** DeepSeek, xAI and most compat servers. */
  reasoning_content: nullish(z.string()),
  /** vLLM (newer) and OpenRouter; an object on some servers, then ignored. */
  reasoning: nullish(z.unknown()),
  tool_calls: nullish(z.array(ChatToolCallOutSchema)),
};

/** The non-streamed `chat.completion` body. */
export const ChatCompletionResponseSchema = z.looseObject({
  id: nullish(z.string()),
  object: nullish(z.string()),
  created: nullish(z.number()),
  model: nullish(z.string()),
  choices: z.array(z.looseObject({
    index: nullish(z.number()),
    message: z.looseObject(MessageFields),
    finish_reason: nullish(z.string()),
  })),
  usage: nullish(ChatUsageSchema),
}).openapi("ChatCompletionResponse");

/** One `chat.completion.chunk`, or an error object sent in the stream. */
export const ChatCompletionChunkSchema = z.looseObject({
  id: nullish(z.string()),
  created: nullish(z.number()),
  model: nullish(z.string()),
  choices: nullish(z.array(z.looseObject({
    index: nullish(z.number()),
    delta: nullish(z.looseObject(MessageFields)),
    finish_reason: nullish(z.string()),
  }))),
  usage: nullish(ChatUsageSchema),
  error: nullish(z.unknown()),
});

/** A parsed response body. */
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponseSchema>;
/** A parsed stream chunk. */
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;
/** A parsed usage object. */
export type ChatUsage = z.infer<typeof ChatUsageSchema>;
/** A parsed response message or stream delta. */
export type ChatMessageOut = NonNullable<
  NonNullable<ChatCompletionChunk["choices"]>[number]["delta"]
>;
/** A parsed tool call or tool call fragment. */
export type ChatToolCallOut = z.infer<typeof ChatToolCallOutSchema>;

/** The text of a response `content` (a string, or text parts on a few compat servers). */
export function contentText(content: ChatMessageOut["content"]): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text ?? "" : "")).join("");
}

/** The reasoning text of a message or delta: `reasoning_content`, else a string `reasoning`. */
export function reasoningText(message: ChatMessageOut): string {
  if (message.reasoning_content) return message.reasoning_content;
  return typeof message.reasoning === "string" ? message.reasoning : "";
}
