/**
 * Upstream face: the core request → a Chat Completions call, for OpenAI itself or an
 * OpenAI-compatible server (`compat`: vLLM, Ollama, DeepSeek, xAI, ...).
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreRequest } from "../../core/request.ts";
import type { UpstreamCall } from "../codec.ts";
import type { ChatTarget } from "./encode_content.ts";
import { encodeMessages } from "./encode_messages.ts";
import { encodeResponseFormat, encodeToolChoice, encodeTools } from "./encode_tools.ts";
import { encodeReasoningEffort } from "./map_reasoning.ts";

/** OpenAI accepts at most four stop sequences. */
const OPENAI_MAX_STOP = 4;

/** The wire's path on a provider. */
export const chatPath = "/v1/chat/completions";

/** Encodes a request. OpenAI-only fields (`metadata`, `store`, `prompt_cache_key`,
 * `verbosity`) go to OpenAI and are reported for compat servers; `max_completion_tokens` is
 * OpenAI's name, `max_tokens` the one compat servers know. Streams always ask for the usage
 * chunk: the gateway needs usage even when the client did not ask. */
export function encodeRequest(request: CoreRequest, target: ChatTarget): Converted<UpstreamCall> {
  const warnings: Warning[] = [];
  const drop = (field: string, message: string) => warnings.push({ field, message });
  const messages = encodeMessages(request, target);
  warnings.push(...messages.warnings);
  const tools = encodeTools(request.tools);
  warnings.push(...tools.warnings);

  const body: Record<string, unknown> = { model: request.model, messages: messages.value };
  if (tools.value.length > 0) {
    body.tools = tools.value;
    if (request.toolChoice) body.tool_choice = encodeToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) {
      body.parallel_tool_calls = request.parallelToolCalls;
    }
  } else {
    // OpenAI rejects both fields without tools.
    if (request.toolChoice) drop("toolChoice", "no tools are sent, so there is nothing to choose.");
    if (request.parallelToolCalls !== undefined) {
      drop("parallelToolCalls", "no tools are sent, so the setting has no effect.");
    }
  }

  if (request.reasoning) {
    const effort = encodeReasoningEffort(request.reasoning, target.compat);
    warnings.push(...effort.warnings);
    if (effort.value !== undefined) body.reasoning_effort = effort.value;
  }
  if (request.maxOutputTokens !== undefined) {
    body[target.compat ? "max_tokens" : "max_completion_tokens"] = request.maxOutputTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) drop("topK", "Chat Completions has no top_k.");
  if (request.stop && request.stop.length > 0) {
    let stop = request.stop;
    if (!target.compat && stop.length > OPENAI_MAX_STOP) {
      drop("stop", `OpenAI takes ${OPENAI_MAX_STOP} stop sequences; the rest are dropped.`);
      stop = stop.slice(0, OPENAI_MAX_STOP);
    }
    body.stop = stop;
  }
  if (request.user !== undefined) body.user = request.user;
  if (request.responseFormat) body.response_format = encodeResponseFormat(request.responseFormat);

  const openaiOnly = (field: string, key: string, value: unknown) => {
    if (value === undefined) return;
    if (target.compat) drop(field, "an OpenAI-only setting; the compatible server gets none.");
    else body[key] = value;
  };
  openaiOnly("verbosity", "verbosity", request.verbosity);
  openaiOnly("promptCacheKey", "prompt_cache_key", request.promptCacheKey);
  // Compat servers store nothing, which is what `store: false` asks for.
  if (request.store === true || !target.compat) openaiOnly("store", "store", request.store);
  if (request.metadata !== undefined) {
    // OpenAI rejects chat metadata unless the completion is stored.
    if (!target.compat && request.store === true) body.metadata = request.metadata;
    else drop("metadata", "sent only to OpenAI with store: true.");
  }

  body.stream = request.stream;
  if (request.stream) body.stream_options = { include_usage: true };
  return { value: { path: chatPath, body }, warnings };
}
