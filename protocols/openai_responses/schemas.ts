/**
 * Zod schemas of the OpenAI Responses wire (`POST /v1/responses`) as clients send it. Objects are
 * loose so new fields pass. The top-level schema validates the request fields gatehouse
 * translates; `input` items and `tools` of a known `type` are re-validated one by one by the
 * decoders (so a malformed item names its own path, e.g. `input.3.call_id`), unknown ones pass
 * as `{ type }` objects and are dropped with a warning.
 * @module
 */
import { safeParseChecked } from "../../core/schema_check.ts";
import { z } from "@hono/zod-openapi";
import { invalidRequest } from "../../core/errors.ts";

const nullish = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** `input_text` (also accepted: `output_text`, `refusal`, `summary_text` as history text). */
export const InputTextPartSchema = z.looseObject({
  type: z.literal("input_text"),
  text: z.string(),
}).openapi("ResponsesInputText");

/** Assistant text replayed in the history. */
export const OutputTextPartSchema = z.looseObject({
  type: z.literal("output_text"),
  text: z.string(),
  annotations: z.array(z.unknown()).optional(),
}).openapi("ResponsesOutputText");

/** An assistant refusal replayed in the history. */
export const RefusalPartSchema = z.looseObject({
  type: z.literal("refusal"),
  refusal: z.string(),
}).openapi("ResponsesRefusal");

/** An image by URL, `data:` URL or uploaded file id. */
export const InputImagePartSchema = z.looseObject({
  type: z.literal("input_image"),
  image_url: nullish(z.string()),
  file_id: nullish(z.string()),
  detail: nullish(z.string()),
}).openapi("ResponsesInputImage");

/** A file (PDF) as a `data:` URL, URL or uploaded file id. */
export const InputFilePartSchema = z.looseObject({
  type: z.literal("input_file"),
  file_data: nullish(z.string()),
  file_url: nullish(z.string()),
  file_id: nullish(z.string()),
  filename: nullish(z.string()),
}).openapi("ResponsesInputFile");

/** Any content part; known types are re-validated by the decoder. */
export const ContentPartSchema = z.looseObject({ type: z.string() });

/** A message item (`type` may be omitted, as in the SDK's EasyInputMessage). */
export const MessageItemSchema = z.looseObject({
  type: z.literal("message").optional(),
  role: z.enum(["user", "system", "developer", "assistant"]),
  content: z.union([z.string(), z.array(ContentPartSchema)]),
  id: nullish(z.string()),
}).openapi("ResponsesMessageItem");

/** A function call the model made earlier. */
export const FunctionCallItemSchema = z.looseObject({
  type: z.literal("function_call"),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  id: nullish(z.string()),
  namespace: nullish(z.string()),
}).openapi("ResponsesFunctionCallItem");

/** Tool output: a string or input parts. */
export const ToolOutputSchema = z.union([z.string(), z.array(ContentPartSchema)]);

/** The client's result for a function call. */
export const FunctionCallOutputItemSchema = z.looseObject({
  type: z.literal("function_call_output"),
  call_id: z.string(),
  output: ToolOutputSchema,
}).openapi("ResponsesFunctionCallOutputItem");

/** A free-form (custom) tool call the model made earlier. */
export const CustomToolCallItemSchema = z.looseObject({
  type: z.literal("custom_tool_call"),
  call_id: z.string(),
  name: z.string(),
  input: z.string(),
  id: nullish(z.string()),
  namespace: nullish(z.string()),
}).openapi("ResponsesCustomToolCallItem");

/** The client's result for a custom tool call. */
export const CustomToolCallOutputItemSchema = z.looseObject({
  type: z.literal("custom_tool_call_output"),
  call_id: z.string(),
  output: ToolOutputSchema,
}).openapi("ResponsesCustomToolCallOutputItem");

/** A reasoning item from an earlier turn (summary plus the opaque continuation). */
export const ReasoningItemSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: nullish(z.string()),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string() })),
  encrypted_content: nullish(z.string()),
  content: nullish(z.array(z.looseObject({ type: z.string(), text: z.string() }))),
}).openapi("ResponsesReasoningItem");

/** The action of a local shell call. */
export const LocalShellActionSchema = z.looseObject({
  type: z.literal("exec"),
  command: z.array(z.string()),
  env: nullish(z.record(z.string(), z.string())),
  working_directory: nullish(z.string()),
  timeout_ms: nullish(z.number()),
  user: nullish(z.string()),
});

/** A local shell call the model made earlier (`call_id`, or the older `id`, names it). */
export const LocalShellCallItemSchema = z.looseObject({
  type: z.literal("local_shell_call"),
  call_id: nullish(z.string()),
  id: nullish(z.string()),
  action: LocalShellActionSchema,
}).openapi("ResponsesLocalShellCallItem");

/** The client's result for a local shell call (`call_id`, or `id` as the SDK types it). */
export const LocalShellCallOutputItemSchema = z.looseObject({
  type: z.literal("local_shell_call_output"),
  call_id: nullish(z.string()),
  id: nullish(z.string()),
  output: z.string(),
}).openapi("ResponsesLocalShellCallOutputItem");

/** Any input item; known types are re-validated by the decoder. */
export const InputItemSchema = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
}).openapi("ResponsesInputItem");

/** A function tool (`strict` defaults to true on OpenAI). */
export const FunctionToolSchema = z.looseObject({
  type: z.literal("function"),
  name: z.string().min(1),
  description: nullish(z.string()),
  parameters: nullish(z.record(z.string(), z.unknown())),
  strict: nullish(z.boolean()),
}).openapi("ResponsesFunctionTool");

/** A free-form tool with an optional grammar (`{type: "grammar", syntax, definition}`). */
export const CustomToolSchema = z.looseObject({
  type: z.literal("custom"),
  name: z.string().min(1),
  description: nullish(z.string()),
  format: nullish(z.looseObject({ type: z.string() })),
}).openapi("ResponsesCustomTool");

/** A group of function/custom tools called as `{namespace, name}` (Codex MCP servers). */
export const NamespaceToolSchema = z.looseObject({
  type: z.literal("namespace"),
  name: z.string().min(1),
  description: nullish(z.string()),
  tools: z.array(z.looseObject({ type: z.string() })),
}).openapi("ResponsesNamespaceTool");

/** Any tool; known types are re-validated by the decoder. */
export const ToolSchema = z.looseObject({ type: z.string() }).openapi("ResponsesTool");

/** `auto`/`none`/`required` or an object naming a tool. */
export const ToolChoiceSchema = z.union([
  z.enum(["auto", "none", "required"]),
  z.looseObject({ type: z.string(), name: nullish(z.string()), mode: nullish(z.string()) }),
]).openapi("ResponsesToolChoice");

/** Structured output format. */
export const TextFormatSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text") }),
  z.looseObject({ type: z.literal("json_object") }),
  z.looseObject({
    type: z.literal("json_schema"),
    name: z.string(),
    schema: z.record(z.string(), z.unknown()),
    strict: nullish(z.boolean()),
    description: nullish(z.string()),
  }),
]).openapi("ResponsesTextFormat");

/** The request body of `POST /v1/responses`. */
export const ResponsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  instructions: nullish(z.union([z.string(), z.array(InputItemSchema)])),
  input: z.union([z.string(), z.array(InputItemSchema)]).optional(),
  tools: nullish(z.array(ToolSchema)),
  tool_choice: nullish(ToolChoiceSchema),
  parallel_tool_calls: nullish(z.boolean()),
  reasoning: nullish(z.looseObject({
    effort: nullish(z.string()),
    summary: nullish(z.string()),
    generate_summary: nullish(z.string()),
  })),
  include: nullish(z.array(z.string())),
  text: nullish(z.looseObject({
    format: nullish(TextFormatSchema),
    verbosity: nullish(z.enum(["low", "medium", "high"])),
  })),
  store: nullish(z.boolean()),
  prompt_cache_key: nullish(z.string()),
  max_output_tokens: nullish(z.number().int().positive()),
  metadata: nullish(z.record(z.string(), z.string())),
  temperature: nullish(z.number().min(0).max(2)),
  top_p: nullish(z.number().min(0).max(1)),
  user: nullish(z.string()),
  stream: nullish(z.boolean()),
  background: nullish(z.boolean()),
  previous_response_id: nullish(z.string()),
  conversation: nullish(z.unknown()),
  truncation: nullish(z.enum(["auto", "disabled"])),
  service_tier: nullish(z.string()),
}).openapi("ResponsesRequest");

/** The validated request body. */
export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;

/** A response object (non-streamed body, and the `response` of lifecycle events). */
export const ResponsesResponseSchema = z.looseObject({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.number(),
  status: z.string(),
  model: z.string(),
  output: z.array(z.looseObject({ type: z.string() })),
  usage: nullish(z.looseObject({
    input_tokens: z.number(),
    input_tokens_details: nullish(z.looseObject({ cached_tokens: z.number() })),
    output_tokens: z.number(),
    output_tokens_details: nullish(z.looseObject({ reasoning_tokens: z.number() })),
    total_tokens: z.number(),
  })),
  error: nullish(z.looseObject({ code: z.string(), message: z.string() })),
  incomplete_details: nullish(z.looseObject({ reason: nullish(z.string()) })),
}).openapi("ResponsesResponse");

/** Validates `value` with `schema`; a violation throws a 400 naming the field path under
 * `path` (e.g. `input.3.call_id: Invalid input: expected string, received number`). */
export function parseAt<T extends z.ZodType>(
  schema: T,
  value: unknown,
  path: string,
): z.infer<T> {
  const result = safeParseChecked(schema, value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = [path, ...(issue?.path ?? []).map(String)].filter((p) => p !== "").join(".");
  throw invalidRequest(`${param}: ${issue?.message ?? "invalid value"}`, param);
}
