/**
 * Server-sent events encoding.
 * @module
 */

const encoder = new TextEncoder();

/** Encodes one event. `event` is omitted for data-only streams (OpenAI chat). */
export function sseBytes(data: string, event?: string): Uint8Array {
  return encoder.encode(
    event === undefined ? `data: ${data}\n\n` : `event: ${event}\ndata: ${data}\n\n`,
  );
}

/** Encodes one JSON event whose SSE `event:` name is its `type` field (Anthropic, Responses). */
export function sseTyped(payload: { type: string }): Uint8Array {
  return sseBytes(JSON.stringify(payload), payload.type);
}

/** Response headers for an event stream. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "connection": "keep-alive",
};
