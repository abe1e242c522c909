/**
 * Server-sent events encoding. Events are written as text: the stream stage that sends them
 * encodes what one upstream chunk produced in one go (`gateway/metered_body.ts`), which costs
 * far less than encoding every event on its own and joining the bytes.
 * @module
 */
import type { Step } from "../core/step.ts";

const encoder = new TextEncoder();

/** One event's text. `event` is omitted for data-only streams (OpenAI chat). */
export function sseText(data: string, event?: string): string {
  return event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`;
}

/** One JSON event whose SSE `event:` name is its `type` field (Anthropic, Responses). The payload
 * is serialised at once, so later changes to objects it references do not reach the event. */
export function sseTyped(payload: { type: string }): string {
  return sseText(JSON.stringify(payload), payload.type);
}

/** A stream of event texts as UTF-8 bytes, as a stream step's last link. */
export function utf8Step(): Step<string, Uint8Array> {
  return { transform: (text, out) => out.enqueue(encoder.encode(text)) };
}

/** Response headers for an event stream. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "connection": "keep-alive",
};
