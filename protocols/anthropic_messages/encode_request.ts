/**
 * The core request → an upstream `POST /v1/messages` call.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreRequest } from "../../core/request.ts";
import type { UpstreamCall } from "../codec.ts";
import { encodeMessages } from "./encode_messages.ts";
import { encodeReasoning, encodeToolChoice, encodeTools } from "./encode_options.ts";
import type { WireRequest } from "./wire.ts";

/** The Messages endpoint. */
export const messagesPath = "/v1/messages";

/** max_tokens sent when the client gave none (Anthropic requires one). */
export const DEFAULT_MAX_TOKENS = 8192;

/** Options of the upstream encoder. */
export interface EncodeRequestOptions {
  /** max_tokens when the request has none. */
  defaultMaxTokens?: number;
}

/** Fields of core with no Anthropic counterpart: ignored with a warning when set. */
function warnUnsupported(request: CoreRequest, warnings: Warning[]): void {
  const ignored: Array<[keyof CoreRequest, string]> = [
    ["metadata", "Anthropic metadata holds only user_id"],
    ["promptCacheKey", "Anthropic caches by cache_control markers, not a key"],
    ["verbosity", "Anthropic has no verbosity setting"],
  ];
  for (const [field, why] of ignored) {
    if (request[field] !== undefined) warnings.push({ field, message: `${why}; ignored` });
  }
  // A Responses client's `store` is honoured by gatehouse itself (previous_response_id chains);
  // `store: false` loses nothing. Only a chat client's `store: true` (OpenAI's own retention)
  // has no counterpart here.
  if (request.store === true && request.source !== "openai_responses") {
    warnings.push({ field: "store", message: "Anthropic keeps no stored completions; ignored" });
  }
}

/** Encodes the upstream call. */
export function encodeRequest(
  request: CoreRequest,
  options: EncodeRequestOptions = {},
): Converted<UpstreamCall> {
  const warnings: Warning[] = [];
  let maxTokens = request.maxOutputTokens;
  if (maxTokens === undefined) {
    maxTokens = options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS;
    warnings.push({
      field: "maxOutputTokens",
      message: `Anthropic requires max_tokens; none was given, sent ${maxTokens}`,
    });
  }
  const { value: conversation, warnings: messageWarnings } = encodeMessages(request);
  warnings.push(...messageWarnings);

  const body: WireRequest = {
    model: request.model,
    max_tokens: maxTokens,
    messages: conversation.messages,
  };
  if (conversation.system.length > 0) body.system = conversation.system;

  const tools = encodeTools(request.tools, warnings);
  if (tools.length > 0) body.tools = tools;
  const toolChoice = encodeToolChoice(request, tools.length, warnings);
  if (toolChoice !== undefined) body.tool_choice = toolChoice;

  const { thinking, effort } = encodeReasoning(request, maxTokens, warnings);
  if (thinking !== undefined) body.thinking = thinking;
  if (effort !== undefined) body.output_config = { effort };

  const format = request.responseFormat;
  if (format?.type === "json_schema") {
    body.output_config = {
      ...body.output_config,
      format: { type: "json_schema", schema: format.schema },
    };
    if (format.description !== undefined) {
      warnings.push({
        field: "responseFormat.description",
        message: "Anthropic output formats have no description; ignored",
      });
    }
  } else if (format?.type === "json_object") {
    warnings.push({
      field: "responseFormat",
      message:
        "Anthropic has no schema-less JSON mode; json_object ignored (ask for JSON in the prompt)",
    });
  }

  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) body.top_k = request.topK;
  if (request.stop !== undefined && request.stop.length > 0) body.stop_sequences = request.stop;
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  warnUnsupported(request, warnings);
  body.stream = request.stream;
  return { value: { path: messagesPath, body }, warnings };
}
