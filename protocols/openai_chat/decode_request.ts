/**
 * Client face: a Chat Completions request body → the core request.
 * @module
 */
import { safeParseChecked } from "../../core/schema_check.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import { invalidRequest } from "../../core/errors.ts";
import type { CoreRequest, ReasoningConfig } from "../../core/request.ts";
import { decodeMessages } from "./decode_messages.ts";
import { decodeResponseFormat, decodeToolChoice, decodeTools } from "./decode_tools.ts";
import { invalidBody } from "./format_issue.ts";
import { type ChatCompletionRequest, ChatCompletionRequestSchema } from "./schemas.ts";

/** Request fields with no core counterpart: accepted and reported, never forwarded. (A
 * same-protocol passthrough keeps them, since it forwards the body untouched.) */
const UNTRANSLATED_FIELDS = [
  "logprobs",
  "top_logprobs",
  "seed",
  "frequency_penalty",
  "presence_penalty",
  "logit_bias",
  "modalities",
  "audio",
  "prediction",
  "service_tier",
  "web_search_options",
  "safety_identifier",
  "prompt_cache_retention",
] as const;

/** Legacy function-calling fields the gateway refuses rather than half-translates. */
const LEGACY_FIELDS = { functions: "tools", function_call: "tool_choice" } as const;

function reasoningOf(effort: ChatCompletionRequest["reasoning_effort"]): ReasoningConfig | null {
  if (effort == null) return null;
  return effort === "none" ? { mode: "disabled", effort } : { mode: "adaptive", effort };
}

function untranslated(body: Record<string, unknown>): Warning[] {
  const warnings: Warning[] = [];
  for (const field of UNTRANSLATED_FIELDS) {
    const value = body[field];
    if (value == null || value === false) continue;
    warnings.push({
      field,
      message: "has no counterpart in the translated request and is ignored.",
    });
  }
  return warnings;
}

/** Validates and decodes a chat request. Throws a 400 naming the field for a schema violation,
 * `n` > 1, audio input and the legacy function-calling forms. */
export function decodeRequest(body: unknown): Converted<CoreRequest> {
  const parsed = safeParseChecked(ChatCompletionRequestSchema, body);
  if (!parsed.success) throw invalidBody(parsed.error);
  const req = parsed.data;
  const raw = req as Record<string, unknown>;

  for (const [legacy, modern] of Object.entries(LEGACY_FIELDS)) {
    if (raw[legacy] != null) {
      throw invalidRequest(
        `${legacy}: legacy function calling cannot be translated; use \`${modern}\`.`,
        legacy,
      );
    }
  }
  if (req.n != null && req.n > 1) {
    throw invalidRequest(
      `n: only n=1 can be translated (got ${req.n}); send one request per completion.`,
      "n",
    );
  }

  const warnings: Warning[] = untranslated(raw);
  const messages = decodeMessages(req.messages);
  warnings.push(...messages.warnings);

  const stream = req.stream === true;
  if (req.stream_options != null && !stream) {
    warnings.push({ field: "stream_options", message: "applies only to streamed requests." });
  }
  if (req.stream_options && "include_obfuscation" in req.stream_options) {
    warnings.push({
      field: "stream_options.include_obfuscation",
      message: "the gateway's chunks carry no obfuscation padding.",
    });
  }
  if (req.max_tokens != null && req.max_completion_tokens != null) {
    warnings.push({
      field: "max_tokens",
      message: "ignored because max_completion_tokens is also set.",
    });
  }

  const value: CoreRequest = {
    model: req.model,
    system: messages.value.system,
    messages: messages.value.messages,
    tools: decodeTools(req.tools ?? []),
    stream,
    source: "openai_chat",
  };
  if (req.tool_choice != null) {
    const choice = decodeToolChoice(req.tool_choice);
    value.toolChoice = choice.value;
    warnings.push(...choice.warnings);
  }
  if (req.parallel_tool_calls != null) value.parallelToolCalls = req.parallel_tool_calls;
  const maxOutput = req.max_completion_tokens ?? req.max_tokens;
  if (maxOutput != null) value.maxOutputTokens = maxOutput;
  if (req.temperature != null) value.temperature = req.temperature;
  if (req.top_p != null) value.topP = req.top_p;
  if (req.stop != null) value.stop = typeof req.stop === "string" ? [req.stop] : req.stop;
  const reasoning = reasoningOf(req.reasoning_effort);
  if (reasoning) value.reasoning = reasoning;
  if (req.response_format != null) value.responseFormat = decodeResponseFormat(req.response_format);
  if (req.verbosity != null) value.verbosity = req.verbosity;
  if (req.user != null) value.user = req.user;
  if (req.metadata != null) value.metadata = req.metadata;
  if (req.store != null) value.store = req.store;
  if (req.prompt_cache_key != null) value.promptCacheKey = req.prompt_cache_key;
  if (stream && req.stream_options?.include_usage === true) value.includeStreamUsage = true;
  return { value, warnings };
}
