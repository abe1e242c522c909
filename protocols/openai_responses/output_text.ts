/**
 * The output text of raw Responses stream events, for metering a passthrough stream against a
 * budget: the `delta` of text, reasoning and function-argument delta events. A run of events is
 * scanned ({@link outputTextOfRun}); one parsed event is read whole ({@link outputTextOfEvent},
 * for runs the scan gives up on).
 * @module
 */
import type { SseEvent } from "../../sse/parse_sse.ts";
import { type DeltaShape, type RunText, scanDeltas } from "../output_scan.ts";

/** Events whose `delta` is generated text. */
const DELTA_EVENTS = new Set([
  "response.output_text.delta",
  "response.reasoning_text.delta",
  "response.reasoning_summary_text.delta",
  "response.function_call_arguments.delta",
  "response.custom_tool_call_input.delta",
  "response.refusal.delta",
]);

/** Where the text is: the `delta` string of those events. */
const DELTA_TEXT: DeltaShape = { events: [...DELTA_EVENTS] };

/** Appends the output text of a run of complete events (raw SSE text) to `into`, piece by
 * piece; false when the run must be parsed event by event instead (`output_scan.ts`). */
export function outputTextOfRun(run: string, into: RunText): boolean {
  return scanDeltas(run, DELTA_TEXT, into);
}

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
