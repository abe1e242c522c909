/**
 * How a Messages stream ends, for the passthrough: `message_stop` is a clean end, an `error`
 * event a failed one. A stream that breaks off gets an `error` event from the gateway.
 * @module
 */
import type { StreamEnds } from "../codec.ts";
import { errorEvent } from "./encode_stream.ts";

/** The event's type: its `event:` name, or the `type` in its data for servers that omit it. */
function typeOf(event: { event?: string; data: string }): string | null {
  if (event.event !== undefined) return event.event;
  try {
    const payload = JSON.parse(event.data) as { type?: unknown } | null;
    return typeof payload?.type === "string" ? payload.type : null;
  } catch {
    return null;
  }
}

/** A watcher for one Messages stream. */
export function messagesStreamEnds(): StreamEnds {
  return {
    pattern: /message_stop|"type"\s*:\s*"error"|event:\s*error/,
    see(event) {
      const type = typeOf(event);
      return type === "message_stop" ? "finish" : type === "error" ? "error" : null;
    },
    failure: (error) => errorEvent(error),
  };
}
