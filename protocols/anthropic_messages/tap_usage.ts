/**
 * Usage read off raw Anthropic traffic, for the passthrough tap (client and upstream both speak
 * Messages, bytes are piped, only usage is recorded).
 * @module
 */
import type { Usage } from "../../core/response.ts";
import type { SseEvent } from "../../sse/parse_sse.ts";
import {
  type AnthropicUsageFields,
  partialUsageFromAnthropic,
  usageFromAnthropic,
} from "./map_usage.ts";

/** Only these two events carry usage. */
function carriesUsage(event: SseEvent): boolean {
  if (event.event !== undefined) {
    return event.event === "message_start" || event.event === "message_delta";
  }
  // A server that omits `event:` names: look for the type before parsing.
  return event.data.includes('"message_start"') || event.data.includes('"message_delta"');
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null ? value as Record<string, unknown> : null;
}

/** Usage of one stream event: `message_start` (input side, preliminary output) and
 * `message_delta` (cumulative output, and input when the server reports it there); null for
 * every other event, without parsing it. */
export function usageOfEvent(event: SseEvent): Partial<Usage> | null {
  if (!carriesUsage(event)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    return null;
  }
  const payload = record(parsed);
  if (payload === null) return null;
  const usage = payload.type === "message_start"
    ? record(record(payload.message)?.usage)
    : payload.type === "message_delta"
    ? record(payload.usage)
    : null;
  return usage === null ? null : partialUsageFromAnthropic(usage as AnthropicUsageFields);
}

/** Usage of a complete message body, or null when it has none. */
export function usageOfBody(body: unknown): Usage | null {
  const usage = record(record(body)?.usage);
  return usage === null ? null : usageFromAnthropic(usage as AnthropicUsageFields);
}
