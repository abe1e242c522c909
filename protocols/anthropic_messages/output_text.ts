/**
 * The output text of raw Messages stream events, for metering a passthrough stream against a
 * budget: text, thinking and tool-input JSON of `content_block_delta` events. A run of events is
 * scanned ({@link outputTextOfRun}); one parsed event is read whole ({@link outputTextOfEvent},
 * for runs the scan gives up on).
 * @module
 */
import type { SseEvent } from "../../sse/parse_sse.ts";
import { type DeltaShape, type RunText, scanDeltas } from "../output_scan.ts";

const BLOCK_DELTA: DeltaShape = {
  events: ["content_block_delta"],
  keys: ["text", "thinking", "partial_json"],
};

/** Appends the output text of a run of complete events (raw SSE text) to `into`, piece by
 * piece; false when the run must be parsed event by event instead (`output_scan.ts`). */
export function outputTextOfRun(run: string, into: RunText): boolean {
  return scanDeltas(run, BLOCK_DELTA, into);
}

interface BlockDelta {
  type?: unknown;
  delta?: { text?: unknown; thinking?: unknown; partial_json?: unknown };
}

const text = (value: unknown) => typeof value === "string" ? value : "";

/** The generated text an event carries ("" for every other event). */
export function outputTextOfEvent(event: SseEvent): string {
  if (event.event !== undefined && event.event !== "content_block_delta") return "";
  if (!event.data.includes('"content_block_delta"')) return "";
  try {
    const payload = JSON.parse(event.data) as BlockDelta;
    const delta = payload.delta;
    if (payload.type !== "content_block_delta" || !delta) return "";
    return text(delta.text) + text(delta.thinking) + text(delta.partial_json);
  } catch {
    return "";
  }
}
