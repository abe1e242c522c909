/**
 * The output text of one raw Responses stream event, for metering a passthrough stream against a
 * budget: the `delta` of text, reasoning and function-argument delta events.
 * @module
 */
import type { SseEvent } from "../../sse/parse_sse.ts";

/** Events whose `delta` is generated text. */
const DELTA_EVENTS = new Set([
  "response.output_text.delta",
  "response.reasoning_text.delta",
  "response.reasoning_summary_text.delta",
  "response.function_call_arguments.delta",
  "response.custom_tool_call_input.delta",
  "response.refusal.delta",
]);

/** The generated text an event carries ("" for every other event). */
export function outputTextOfEvent(event: SseEvent): string {
  if (event.event !== undefined && !DELTA_EVENTS.has(event.event)) return "";
  if (!event.data.includes('.delta"')) return "";
  try {
    const payload = JSON.parse(event.data) as { type?: unknown; delta?: unknown };
    return typeof payload.type === "string" && DELTA_EVENTS.has(payload.type) &&
        typeof payload.delta === "string"
      ? payload.delta
      : "";
  } catch {
    return "";
  }
}
