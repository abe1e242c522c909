/**
 * Usage of a Responses exchange for the passthrough tap. Only the terminal events carry usage
 * (`response.completed`, `response.incomplete`, `response.failed`), so every other event is
 * rejected by its name (or, for data-only streams, by a substring test) before any parsing.
 * @module
 */
import type { Usage } from "../../core/response.ts";
import type { SseEvent } from "../../sse/parse_sse.ts";
import { type ResponsesUsageFields, usageFromResponses } from "./map_usage.ts";

const TERMINAL = ["response.completed", "response.incomplete", "response.failed"];

function usageOf(response: unknown): Usage | null {
  if (typeof response !== "object" || response === null) return null;
  const usage = (response as { usage?: unknown }).usage;
  if (typeof usage !== "object" || usage === null) return null;
  return usageFromResponses(usage as ResponsesUsageFields);
}

/** Usage carried by one upstream event, or null. */
export function usageOfEvent(event: SseEvent): Partial<Usage> | null {
  if (event.event !== undefined) {
    if (!TERMINAL.includes(event.event)) return null;
  } else if (!TERMINAL.some((type) => event.data.includes(`"${type}"`))) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch {
    return null;
  }
  const e = parsed as { type?: unknown; response?: unknown } | null;
  if (typeof e?.type !== "string" || !TERMINAL.includes(e.type)) return null;
  return usageOf(e.response);
}

/** Usage of a non-streamed body, or null when it has none. */
export function usageOfBody(body: unknown): Usage | null {
  return usageOf(body);
}
