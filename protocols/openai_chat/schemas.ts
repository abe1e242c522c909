/**
 * Zod schemas of the Chat Completions request as clients send it. Loose objects: fields the
 * gateway does not translate pass validation and are reported as warnings by the decoder.
 * @module
 */
import { z } from "@hono/zod-openapi";

/** An optional field that may also be null, as OpenAI clients often send. */
export const nullish = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** `{type: "text", text}`; `cache_control` is kept for Anthropic upstreams (OpenRouter style). */
export const TextContentPartSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  cache_control: z.record(z.string(), z.unknown()).optional(),
}).openapi("ChatTextContentPart");

/** An image by URL or `data:` URL. */
export const ImageContentPartSchema = z.looseObject({
  type: z.literal("image_url"),
  image_url: z.looseObject({
    url: z.string(),
    detail: z.string().optional(),
  }),
}).openapi("ChatImageContentPart");

/** Audio input: validated so the decoder can refuse it by path. */
export const AudioContentPartSchema = z.looseObject({
  type: z.literal("input_audio"),
  input_audio: z.looseObject({ data: z.string(), format: z.string() }),
}).openapi("ChatAudioContentPart");

/** A file (PDF) as a `data:` URL or an uploaded file id. */
export const FileContentPartSchema = z.looseObject({
  type: z.literal("file"),
  file: z.looseObject({
    file_data: z.string().optional(),
    file_id: z.string().optional(),
    filename: z.string().optional(),
  }),
}).openapi("ChatFileContentPart");

/** A refusal the assistant gave earlier, replayed in the history. */
export const RefusalContentPartSchema = z.looseObject({
  type: z.literal("refusal"),
  refusal: z.string(),
}).openapi("ChatRefusalContentPart");

const UserContentPartSchema = z.discriminatedUnion("type", [
  TextContentPartSchema,
  ImageContentPartSchema,
  AudioContentPartSchema,
  FileContentPartSchema,
]);

const TextContentSchema = z.union([z.string(), z.array(TextContentPartSchema)]);

/** A tool call in an assistant message of the history. */
export const ToolCallSchema = z.discriminatedUnion("type", [
  z.looseObject({
    id: z.string(),
    type: z.literal("function"),
    function: z.looseObject({ name: z.string(), arguments: z.string() }),
  }),
  z.looseObject({
    id: z.string(),
    type: z.literal("custom"),
    custom: z.looseObject({ name: z.string(), input: z.string() }),
  }),
]).openapi("ChatMessageToolCall");

const SystemMessageSchema = z.looseObject({
  role: z.literal("system"),
  content: TextContentSchema,
  name: z.string().optional(),
});

const DeveloperMessageSchema = z.looseObject({
  role: z.literal("developer"),
  content: TextContentSchema,
  name: z.string().optional(),
});

const UserMessageSchema = z.looseObject({
  role: z.literal("user"),
  content: z.union([z.string(), z.array(UserContentPartSchema)]),
  name: z.string().optional(),
});

const AssistantMessageSchema = z.looseObject({
  role: z.literal("assistant"),
  content: nullish(
    z.union([
      z.string(),
      z.array(z.discriminatedUnion("type", [TextContentPartSchema, RefusalContentPartSchema])),
    ]),
  ),
  refusal: nullish(z.string()),
  tool_calls: nullish(z.array(ToolCallSchema)),
  /** DeepSeek-style compat clients replay the model's reasoning here. */
  reasoning_content: nullish(z.string()),
  /** vLLM and OpenRouter name the same field `reasoning`. */
  reasoning: nullish(z.unknown()),
  name: z.string().optional(),
});

const ToolMessageSchema = z.looseObject({
  role: z.literal("tool"),
  tool_call_id: z.string(),
  content: TextContentSchema,
});

/** The legacy `function` role: validated loosely so the decoder can refuse it by name. */
const FunctionMessageSchema = z.looseObject({ role: z.literal("function") });

/** One message of `messages`. */
export const ChatMessageSchema = z.discriminatedUnion("role", [
  SystemMessageSchema,
  DeveloperMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
  FunctionMessageSchema,
]).openapi("ChatMessage");

/** A tool definition: a JSON-Schema function or a free-form custom tool. */
export const ChatToolSchema = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("function"),
    function: z.looseObject({
      name: z.string().min(1),
      description: z.string().optional(),
      parameters: z.record(z.string(), z.unknown()).optional(),
      strict: nullish(z.boolean()),
    }),
  }),
  z.looseObject({
    type: z.literal("custom"),
    custom: z.looseObject({
      name: z.string().min(1),
      description: z.string().optional(),
      format: z.record(z.string(), z.unknown()).optional(),
    }),
  }),
]).openapi("ChatTool");

/** `tool_choice` in every form the API accepts. */
export const ChatToolChoiceSchema = z.union([
  z.enum(["auto", "none", "required"]),
  z.looseObject({ type: z.literal("function"), function: z.looseObject({ name: z.string() }) }),
  z.looseObject({ type: z.literal("custom"), custom: z.looseObject({ name: z.string() }) }),
  z.looseObject({
    type: z.literal("allowed_tools"),
    allowed_tools: z.looseObject({
      mode: z.enum(["auto", "required"]),
      tools: z.array(z.record(z.string(), z.unknown())),
    }),
  }),
]).openapi("ChatToolChoice");

/** `response_format`. */
export const ChatResponseFormatSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    json_schema: z.looseObject({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: nullish(z.boolean()),
    }),
  }),
]).openapi("ChatResponseFormat");

/** The body of `POST /v1/chat/completions`. */
export const ChatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(ChatMessageSchema).min(1),
  tools: nullish(z.array(ChatToolSchema)),
  tool_choice: nullish(ChatToolChoiceSchema),
  parallel_tool_calls: nullish(z.boolean()),
  reasoning_effort: nullish(z.enum(["none", "minimal", "low", "medium", "high", "xhigh", "max"])),
  max_tokens: nullish(z.number().int().positive()),
  max_completion_tokens: nullish(z.number().int().positive()),
  temperature: nullish(z.number().min(0).max(2)),
  top_p: nullish(z.number().min(0).max(1)),
  stop: nullish(z.union([z.string(), z.array(z.string())])),
  n: nullish(z.number().int().positive()),
  user: nullish(z.string()),
  metadata: nullish(z.record(z.string(), z.string())),
  response_format: nullish(ChatResponseFormatSchema),
  stream: nullish(z.boolean()),
  stream_options: nullish(z.looseObject({ include_usage: nullish(z.boolean()) })),
  store: nullish(z.boolean()),
  prompt_cache_key: nullish(z.string()),
  verbosity: nullish(z.enum(["low", "medium", "high"])),
}).openapi("ChatCompletionRequest");

/** A validated request body. */
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;
/** A validated message. */
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
/** A validated user content part. */
export type ChatUserContentPart = z.infer<typeof UserContentPartSchema>;
/** A validated tool definition. */
export type ChatTool = z.infer<typeof ChatToolSchema>;
/** A validated tool choice. */
export type ChatToolChoice = z.infer<typeof ChatToolChoiceSchema>;
