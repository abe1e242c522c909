/**
 * Zod schemas of the Anthropic Messages wire (`POST /v1/messages`): the request a client sends
 * and the message body a server answers with. Objects are loose so new fields pass; the fields
 * gatehouse translates are validated. Content blocks of a known `type` are re-validated one by
 * one by the decoders (so a malformed known block names its own path), unknown ones pass as a
 * `{ type }` object and are dropped with a warning.
 * @module
 */
import { z } from "@hono/zod-openapi";

/** Anthropic's prompt-cache marker (`{"type":"ephemeral","ttl":"1h"}`). */
export const CacheControlSchema = z.looseObject({ type: z.string() });

/** A text block. */
export const TextBlockSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  cache_control: CacheControlSchema.nullish(),
  citations: z.array(z.unknown()).nullish(),
});

const Base64SourceSchema = z.looseObject({
  type: z.literal("base64"),
  media_type: z.string(),
  data: z.string(),
});
const UrlSourceSchema = z.looseObject({ type: z.literal("url"), url: z.string() });
const FileSourceSchema = z.looseObject({ type: z.literal("file"), file_id: z.string() });
const PlainTextSourceSchema = z.looseObject({
  type: z.literal("text"),
  media_type: z.string().optional(),
  data: z.string(),
});
const ContentSourceSchema = z.looseObject({
  type: z.literal("content"),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
});

/** An image block: base64, URL or Files-API source. */
export const ImageBlockSchema = z.looseObject({
  type: z.literal("image"),
  source: z.discriminatedUnion("type", [Base64SourceSchema, UrlSourceSchema, FileSourceSchema]),
  cache_control: CacheControlSchema.nullish(),
});

/** A document block: base64 PDF, URL PDF, plain text, inline content or Files-API source. */
export const DocumentBlockSchema = z.looseObject({
  type: z.literal("document"),
  source: z.discriminatedUnion("type", [
    Base64SourceSchema,
    UrlSourceSchema,
    FileSourceSchema,
    PlainTextSourceSchema,
    ContentSourceSchema,
  ]),
  title: z.string().nullish(),
  context: z.string().nullish(),
  citations: z.unknown().optional(),
  cache_control: CacheControlSchema.nullish(),
});

/** A tool call by the model, replayed in an assistant turn. */
export const ToolUseBlockSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  cache_control: CacheControlSchema.nullish(),
});

/** A tool result in a user turn. */
export const ToolResultBlockSchema = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  is_error: z.boolean().nullish(),
  cache_control: CacheControlSchema.nullish(),
});

/** A thinking block replayed in an assistant turn. */
export const ThinkingBlockSchema = z.looseObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  signature: z.string().nullish(),
});

/** A redacted thinking block replayed in an assistant turn. */
export const RedactedThinkingBlockSchema = z.looseObject({
  type: z.literal("redacted_thinking"),
  data: z.string(),
});

/** Any other block (server tool use, search results, ...): carried as its type only. */
const OtherBlockSchema = z.looseObject({ type: z.string() });

/** One content block of a message. */
export const ContentBlockSchema = z.union([
  TextBlockSchema,
  ImageBlockSchema,
  DocumentBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
  OtherBlockSchema,
]);

/** One turn. `system` is the newer in-conversation system message Claude Code sends. */
export const MessageParamSchema = z.looseObject({
  role: z.enum(["user", "assistant", "system"]),
  content: z.union([z.string(), z.array(ContentBlockSchema)]),
});

/** A tool definition: a custom tool (no `type` or `custom`, with `input_schema`) or a typed
 * server/client tool (`web_search_20250305`, `bash_20250124`, ...). */
export const ToolSchema = z.looseObject({
  type: z.string().nullish(),
  name: z.string(),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().optional(),
  cache_control: CacheControlSchema.nullish(),
});

/** Which tool the model must use. */
export const ToolChoiceSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("auto"), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("any"), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal("none") }),
  z.looseObject({
    type: z.literal("tool"),
    name: z.string(),
    disable_parallel_tool_use: z.boolean().optional(),
  }),
]);

const DisplaySchema = z.string().nullish();

/** Thinking settings. */
export const ThinkingConfigSchema = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("enabled"),
    budget_tokens: z.number().int().nonnegative(),
    display: DisplaySchema,
  }),
  z.looseObject({ type: z.literal("adaptive"), display: DisplaySchema }),
  z.looseObject({ type: z.literal("disabled") }),
  z.looseObject({ type: z.literal("between_tools") }),
]);

/** Structured output: a JSON schema the answer must follow. */
export const JsonOutputFormatSchema = z.looseObject({
  type: z.literal("json_schema"),
  schema: z.record(z.string(), z.unknown()),
});

/** `output_config`: effort and output format. */
export const OutputConfigSchema = z.looseObject({
  effort: z.enum(["low", "medium", "high", "xhigh", "max"]).nullish(),
  format: JsonOutputFormatSchema.nullish(),
});

/** The request body of `POST /v1/messages`. */
export const MessagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(MessageParamSchema),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), z.array(TextBlockSchema)]).optional(),
  tools: z.array(ToolSchema).optional(),
  tool_choice: ToolChoiceSchema.optional(),
  thinking: ThinkingConfigSchema.optional(),
  output_config: OutputConfigSchema.optional(),
  output_format: JsonOutputFormatSchema.nullish(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  top_k: z.number().int().optional(),
  stop_sequences: z.array(z.string()).optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  stream: z.boolean().optional(),
}).openapi("AnthropicMessagesRequest");

/** The parsed request body. */
export type MessagesRequest = z.infer<typeof MessagesRequestSchema>;

/** Token usage of a message (`input_tokens` excludes the cache counts). */
export const UsageSchema = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  output_tokens_details: z.looseObject({ thinking_tokens: z.number().nullish() }).nullish(),
});

/** The non-streamed response body (a `message`). */
export const MessageResponseSchema = z.looseObject({
  id: z.string(),
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string(),
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  /** Refusal details (`{type: "refusal", category, explanation, ...}`); null otherwise. */
  stop_details: z.looseObject({ type: z.string() }).nullish(),
  usage: UsageSchema,
}).openapi("AnthropicMessage");

/** The error envelope (`{"type":"error","error":{"type","message"}}`). */
export const ErrorBodySchema = z.looseObject({
  type: z.literal("error"),
  error: z.looseObject({ type: z.string(), message: z.string() }),
}).openapi("AnthropicError");
