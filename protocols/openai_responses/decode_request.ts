/**
 * A Responses request body → the core request. `previous_response_id` is resolved by the
 * gateway before this runs (see history.ts); everything else is translated here or reported as
 * a warning. `background`, `conversation` and stored `prompt` templates need OpenAI-side state
 * and are refused with a 400.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import { invalidRequest } from "../../core/errors.ts";
import type {
  CoreRequest,
  ReasoningConfig,
  ReasoningEffort,
  ResponseFormat,
} from "../../core/request.ts";
import { decodeInput } from "./decode_input.ts";
import { decodeToolChoice, decodeTools } from "./decode_tools.ts";
import { parseAt, type ResponsesRequest, ResponsesRequestSchema } from "./schemas.ts";

/** The `include` value asking for reasoning continuation tokens. */
export const INCLUDE_ENCRYPTED = "reasoning.encrypted_content";

/** Top-level fields this decoder translates or deliberately resolves elsewhere. */
const HANDLED = new Set([
  "model",
  "instructions",
  "input",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "reasoning",
  "include",
  "text",
  "store",
  "prompt_cache_key",
  "max_output_tokens",
  "metadata",
  "temperature",
  "top_p",
  "user",
  "safety_identifier",
  "stream",
  "background",
  "previous_response_id",
  "conversation",
  "truncation",
  "prompt",
]);

function refuseStatefulFeatures(body: Record<string, unknown>, req: ResponsesRequest): void {
  if (req.background === true) {
    throw invalidRequest(
      "background: background responses need OpenAI-side storage, which gatehouse does not " +
        "offer; send the request without background (stream it for long runs).",
      "background",
    );
  }
  if (req.conversation !== undefined && req.conversation !== null) {
    throw invalidRequest(
      "conversation: OpenAI conversation objects are not supported by gatehouse; send the " +
        "history in input, or chain turns with previous_response_id.",
      "conversation",
    );
  }
  if (body.prompt !== undefined && body.prompt !== null) {
    throw invalidRequest(
      "prompt: stored prompt templates live in OpenAI's dashboard and cannot be translated; " +
        "send the prompt text as instructions and input.",
      "prompt",
    );
  }
}

const EFFORTS: readonly string[] = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];
const SUMMARIES: readonly string[] = ["auto", "concise", "detailed"];

/** Effort and summary values are checked here rather than by the schema, so a value newer than
 * gatehouse is dropped with a warning instead of failing the request. */
function decodeReasoning(req: ResponsesRequest, w: Warning[]): ReasoningConfig | undefined {
  const includeEncrypted = (req.include ?? []).includes(INCLUDE_ENCRYPTED);
  if (!req.reasoning) return includeEncrypted ? { mode: "adaptive", includeEncrypted } : undefined;
  const effort = req.reasoning.effort ?? undefined;
  const summary = req.reasoning.summary ?? req.reasoning.generate_summary ?? undefined;
  const config: ReasoningConfig = { mode: effort === "none" ? "disabled" : "adaptive" };
  if (effort && EFFORTS.includes(effort)) config.effort = effort as ReasoningEffort;
  else if (effort) {
    w.push({ field: "reasoning.effort", message: `"${effort}" is unknown; the default applies.` });
  }
  if (summary && SUMMARIES.includes(summary)) {
    config.summary = summary as NonNullable<ReasoningConfig["summary"]>;
  } else if (summary && summary !== "none") {
    w.push({ field: "reasoning.summary", message: `"${summary}" is unknown; no summary asked.` });
  }
  if (includeEncrypted) config.includeEncrypted = true;
  return config;
}

function decodeFormat(req: ResponsesRequest): ResponseFormat | undefined {
  const format = req.text?.format;
  if (!format) return undefined;
  if (format.type !== "json_schema") return { type: format.type };
  const out: ResponseFormat = { type: "json_schema", name: format.name, schema: format.schema };
  if (typeof format.strict === "boolean") out.strict = format.strict;
  if (format.description) out.description = format.description;
  return out;
}

function ignoredFieldWarnings(body: Record<string, unknown>, req: ResponsesRequest): Warning[] {
  const warnings: Warning[] = [];
  for (const key of Object.keys(body)) {
    if (HANDLED.has(key) || body[key] === null || body[key] === undefined) continue;
    warnings.push({ field: key, message: "has no counterpart in gatehouse; ignored." });
  }
  for (const value of req.include ?? []) {
    if (value === "reasoning.encrypted_content") continue;
    warnings.push({
      field: "include",
      message: `"${value}" has no counterpart in gatehouse; ignored.`,
    });
  }
  if (req.truncation === "auto") {
    warnings.push({
      field: "truncation",
      message: "auto truncation is not offered; an input over the context window fails.",
    });
  }
  return warnings;
}

/** Decodes a parsed JSON body. Throws a 400 naming the field path on a schema violation. */
export function decodeRequest(body: unknown): Converted<CoreRequest> {
  const req = parseAt(ResponsesRequestSchema, body, "");
  const raw = body as Record<string, unknown>;
  refuseStatefulFeatures(raw, req);
  const warnings = ignoredFieldWarnings(raw, req);

  const request: CoreRequest = {
    model: req.model,
    system: [],
    messages: [],
    tools: [],
    stream: req.stream ?? false,
    source: "openai_responses",
  };
  if (typeof req.instructions === "string") {
    if (req.instructions !== "") request.system = [{ type: "text", text: req.instructions }];
  } else if (Array.isArray(req.instructions)) {
    const instructions = decodeInput(req.instructions, "instructions");
    request.messages.push(...instructions.value);
    warnings.push(...instructions.warnings);
  }
  const input = decodeInput(req.input as string | unknown[] | undefined);
  request.messages.push(...input.value);
  warnings.push(...input.warnings);

  const tools = decodeTools(req.tools);
  request.tools = tools.value;
  warnings.push(...tools.warnings);
  const choice = decodeToolChoice(req.tool_choice);
  if (choice.value) request.toolChoice = choice.value;
  warnings.push(...choice.warnings);

  if (typeof req.parallel_tool_calls === "boolean") {
    request.parallelToolCalls = req.parallel_tool_calls;
  }
  const reasoning = decodeReasoning(req, warnings);
  if (reasoning) request.reasoning = reasoning;
  const format = decodeFormat(req);
  if (format) request.responseFormat = format;
  if (req.text?.verbosity) request.verbosity = req.text.verbosity;
  if (typeof req.max_output_tokens === "number") request.maxOutputTokens = req.max_output_tokens;
  if (typeof req.temperature === "number") request.temperature = req.temperature;
  if (typeof req.top_p === "number") request.topP = req.top_p;
  const user = req.user ?? (typeof raw.safety_identifier === "string" ? raw.safety_identifier : "");
  if (user) request.user = user;
  if (req.metadata) request.metadata = req.metadata;
  if (typeof req.store === "boolean") request.store = req.store;
  if (req.prompt_cache_key) request.promptCacheKey = req.prompt_cache_key;
  return { value: request, warnings };
}
