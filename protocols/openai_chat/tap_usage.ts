/**
 * Usage for the same-protocol passthrough, which pipes chat bytes untouched and only taps them.
 * @module
 */
import { safeParseChecked } from "../../core/schema_check.ts";
import type { Usage } from "../../core/response.ts";
import type { SseEvent } from "../../sse/parse_sse.ts";
import { fromChatUsage } from "./map_usage.ts";
import { ChatUsageSchema } from "./response_schemas.ts";

/** Matches a usage object; `"usage":null`, which OpenAI puts on every chunk once usage is
 * requested, does not match. Every event {@link isUsageOnlyChunk} picks out matches it. */
export const USAGE_OBJECT = /"usage"\s*:\s*\{/;

function parse(data: string): Record<string, unknown> | null {
  try {
    const json: unknown = JSON.parse(data);
    return json !== null && typeof json === "object" ? json as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

function usageOf(container: Record<string, unknown> | null): Usage | null {
  if (!container || container.usage == null) return null;
  const parsed = safeParseChecked(ChatUsageSchema, container.usage);
  return parsed.success ? fromChatUsage(parsed.data) : null;
}

/** Usage carried by one chunk: the usage chunk (OpenAI) or the finish chunk (DeepSeek).
 * Cheap: events without a usage object return null without being parsed. */
export function usageOfEvent(event: SseEvent): Partial<Usage> | null {
  if (!USAGE_OBJECT.test(event.data)) return null;
  return usageOf(parse(event.data));
}

/** Usage of a non-streamed body. */
export function usageOfBody(body: unknown): Usage | null {
  if (body === null || typeof body !== "object") return null;
  return usageOf(body as Record<string, unknown>);
}

/** The final `choices: []` chunk that only reports usage. The gateway always asks upstream for
 * it and hides it from clients that did not ask (`stream_options.include_usage`). */
export function isUsageOnlyChunk(event: SseEvent): boolean {
  if (!USAGE_OBJECT.test(event.data)) return false;
  const json = parse(event.data);
  return json !== null && Array.isArray(json.choices) && json.choices.length === 0 &&
    json.usage != null;
}
