/**
 * The output text of one raw Messages stream event, for metering a passthrough stream against a
 * budget: text, thinking and tool-input JSON of `content_block_delta` events.
 * @module
 */
import type { SseEvent } from "../../sse/parse_sse.ts";

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
