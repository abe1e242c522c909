/**
 * The core request → a `POST /v1/responses` call to an OpenAI upstream. gatehouse is stateless
 * toward the provider, so every call sets `store: false` and, for reasoning models, asks for
 * `reasoning.encrypted_content`: reasoning then continues across turns through the encrypted
 * items the client replays. Models that do not reason reject that (and `reasoning`, and
 * reasoning items) with a 400, so for them all three are left out with a warning
 * (see reasoning_models.ts).
 *
 * Reasoning: `effort` passes through (`max` → `xhigh`, the highest OpenAI level); an explicit
 * `budgetTokens` without effort maps to an effort: < 4096 → low, < 16384 → medium, else high;
 * `disabled` → effort `none`. A summary is requested (`auto`) for clients of other protocols
 * unless they hid thinking (`display: omitted`), so their thinking blocks have text.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreRequest, ReasoningConfig, ReasoningEffort } from "../../core/request.ts";
import type { UpstreamCall } from "../codec.ts";
import { shortenToolName } from "../tool_names.ts";
import { INCLUDE_ENCRYPTED } from "./decode_request.ts";
import { encodeInput } from "./encode_input.ts";
import { encodeToolChoice, encodeTools } from "./encode_tools.ts";
import { acceptsReasoning } from "./reasoning_models.ts";

/** OpenAI's smallest accepted `max_output_tokens`. */
export const MIN_OUTPUT_TOKENS = 16;
/** OpenAI's limit on `user` (and `safety_identifier`). */
const USER_LIMIT = 64;

/** A thinking budget → the OpenAI effort that spends about as much. */
export function effortOfBudget(budgetTokens: number): ReasoningEffort {
  if (budgetTokens < 4096) return "low";
  if (budgetTokens < 16384) return "medium";
  return "high";
}

function encodeReasoning(
  config: ReasoningConfig,
  source: CoreRequest["source"],
  w: Warning[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (config.mode === "disabled") out.effort = "none";
  else if (config.effort === "max") {
    out.effort = "xhigh";
    w.push({ field: "reasoning.effort", message: 'effort "max" is sent as OpenAI\'s "xhigh".' });
  } else if (config.effort) out.effort = config.effort;
  else if (config.budgetTokens !== undefined) out.effort = effortOfBudget(config.budgetTokens);
  if (config.summary) out.summary = config.summary;
  else if (config.mode !== "disabled" && source !== "openai_responses") {
    if (config.display !== "omitted") out.summary = "auto";
  }
  return out;
}

function textConfig(request: CoreRequest): Record<string, unknown> | undefined {
  const text: Record<string, unknown> = {};
  const f = request.responseFormat;
  if (f?.type === "json_schema") {
    const format: Record<string, unknown> = { type: "json_schema", name: f.name, schema: f.schema };
    if (f.strict !== undefined) format.strict = f.strict;
    if (f.description) format.description = f.description;
    text.format = format;
  } else if (f) text.format = { type: f.type };
  if (request.verbosity) text.verbosity = request.verbosity;
  return Object.keys(text).length > 0 ? text : undefined;
}

function ignoredFields(request: CoreRequest, w: Warning[]): void {
  if (request.topK !== undefined) {
    w.push({ field: "top_k", message: "OpenAI Responses has no top_k; ignored." });
  }
  if (request.stop && request.stop.length > 0) {
    w.push({ field: "stop", message: "OpenAI Responses has no stop sequences; ignored." });
  }
  if (request.store === true) {
    w.push({
      field: "store",
      message: "gatehouse keeps the upstream stateless (store: false); the gateway keeps the " +
        "conversation for previous_response_id instead.",
    });
  }
}

/** The wire's path on a provider. */
export const responsesPath = "/v1/responses";

/** Encodes the upstream call. */
export function encodeRequest(request: CoreRequest): Converted<UpstreamCall> {
  const warnings: Warning[] = [];
  const shorten = (name: string) => shortenToolName(name);
  const reasoningModel = acceptsReasoning(request.model);
  const input = encodeInput(request.messages, shorten, reasoningModel);
  warnings.push(...input.warnings);
  const body: Record<string, unknown> = {
    model: request.model,
    input: input.value,
    store: false,
    ...(reasoningModel ? { include: [INCLUDE_ENCRYPTED] } : {}),
    stream: request.stream,
  };
  if (
    request.system.some((p) => p.cacheControl) && !warnings.some((w) => w.field === "cache_control")
  ) {
    warnings.push({
      field: "cache_control",
      message: "prompt-cache markers have no OpenAI counterpart (OpenAI caches automatically).",
    });
  }
  if (request.system.length > 0) body.instructions = request.system.map((p) => p.text).join("\n\n");
  if (request.tools.length > 0) {
    const tools = encodeTools(request.tools, shorten);
    warnings.push(...tools.warnings);
    if (tools.value.length > 0) body.tools = tools.value;
  }
  const choice = encodeToolChoice(request.toolChoice, request.tools, shorten);
  warnings.push(...choice.warnings);
  if (choice.value !== undefined && body.tools) body.tool_choice = choice.value;
  if (request.parallelToolCalls !== undefined && body.tools) {
    body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.reasoning && !reasoningModel) {
    warnings.push({
      field: "reasoning",
      message: `${request.model} does not reason; the reasoning settings were left out.`,
    });
  } else if (request.reasoning) {
    const reasoning = encodeReasoning(request.reasoning, request.source, warnings);
    if (Object.keys(reasoning).length > 0) body.reasoning = reasoning;
  }
  const text = textConfig(request);
  if (text) body.text = text;
  if (request.maxOutputTokens !== undefined) {
    body.max_output_tokens = Math.max(MIN_OUTPUT_TOKENS, request.maxOutputTokens);
    if (request.maxOutputTokens < MIN_OUTPUT_TOKENS) {
      warnings.push({
        field: "max_output_tokens",
        message:
          `raised from ${request.maxOutputTokens} to ${MIN_OUTPUT_TOKENS}, OpenAI's minimum.`,
      });
    }
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.metadata) body.metadata = request.metadata;
  if (request.promptCacheKey) body.prompt_cache_key = request.promptCacheKey;
  if (request.user) {
    body.user = shortenToolName(request.user, USER_LIMIT);
    if (request.user.length > USER_LIMIT) {
      warnings.push({
        field: "user",
        message: `longer than OpenAI's ${USER_LIMIT} characters; sent as a stable shortened form.`,
      });
    }
  }
  ignoredFields(request, warnings);
  return { value: { path: responsesPath, body }, warnings };
}
