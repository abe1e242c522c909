/**
 * A Messages request body (as Claude Code or the Anthropic SDK send it) → the core request.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreRequest } from "../../core/request.ts";
import { decodeMessages, decodeSystem } from "./decode_messages.ts";
import {
  decodeReasoning,
  decodeResponseFormat,
  decodeToolChoice,
  decodeTools,
  warnOutputConfig,
} from "./decode_options.ts";
import { MessagesRequestSchema } from "./schemas.ts";
import { parseAt } from "./validate.ts";

/** Top-level fields this decoder translates. */
const KNOWN_FIELDS = new Set([
  "model",
  "messages",
  "max_tokens",
  "system",
  "tools",
  "tool_choice",
  "thinking",
  "output_config",
  "output_format",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "metadata",
  "stream",
]);

/** Why well-known untranslatable fields are ignored; other unknown fields get a generic note. */
const IGNORED_WHY: Readonly<Record<string, string>> = {
  context_management: "context editing is done by Anthropic itself; ignored",
  service_tier: "the service tier is chosen by the gateway's provider account; ignored",
  container: "code-execution containers exist only on Anthropic; ignored",
  mcp_servers: "the MCP connector exists only on Anthropic; ignored",
  cache_control: "top-level automatic caching has no counterpart; ignored",
  inference_geo: "inference geography has no counterpart; ignored",
  speed: "speed has no counterpart; ignored",
};

function warnUnknownFields(body: Record<string, unknown>, warnings: Warning[]): void {
  for (const key of Object.keys(body)) {
    if (KNOWN_FIELDS.has(key) || body[key] === undefined) continue;
    warnings.push({
      field: key,
      message: Object.hasOwn(IGNORED_WHY, key)
        ? `${key}: ${IGNORED_WHY[key]}`
        : `${key} has no counterpart; ignored`,
    });
  }
}

/** Parses and translates a `POST /v1/messages` body. Throws `invalidRequest` (400) naming the
 * field path when the body does not match the wire. */
export function decodeRequest(body: unknown): Converted<CoreRequest> {
  const request = parseAt(MessagesRequestSchema, body);
  const warnings: Warning[] = [];
  warnUnknownFields(request, warnings);

  const system = decodeSystem(request.system);
  warnings.push(...system.warnings);
  const messages = decodeMessages(request.messages);
  warnings.push(...messages.warnings);

  const core: CoreRequest = {
    model: request.model,
    system: system.value,
    messages: messages.value,
    tools: decodeTools(request.tools, warnings),
    maxOutputTokens: request.max_tokens,
    stream: request.stream ?? false,
    source: "anthropic_messages",
    ...decodeToolChoice(request.tool_choice),
  };
  const reasoning = decodeReasoning(request, warnings);
  if (reasoning !== undefined) core.reasoning = reasoning;
  const responseFormat = decodeResponseFormat(request, warnings);
  if (responseFormat !== undefined) core.responseFormat = responseFormat;
  warnOutputConfig(request, warnings);

  if (request.temperature !== undefined) core.temperature = request.temperature;
  if (request.top_p !== undefined) core.topP = request.top_p;
  if (request.top_k !== undefined) core.topK = request.top_k;
  if (request.stop_sequences !== undefined) core.stop = request.stop_sequences;

  const metadata = request.metadata;
  if (metadata !== undefined) {
    if (metadata.user_id != null) core.user = metadata.user_id;
    for (const key of Object.keys(metadata)) {
      if (key !== "user_id" && metadata[key] != null) {
        warnings.push({
          field: `metadata.${key}`,
          message: "only metadata.user_id is carried; ignored",
        });
      }
    }
  }
  return { value: core, warnings };
}
