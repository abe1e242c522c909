/**
 * How a Responses stream ends, for the passthrough: `response.completed` or
 * `response.incomplete` is a clean end; `response.failed` or an `error` event a failed one. A
 * stream that breaks off gets `response.failed` from the gateway: the response the stream
 * announced in `response.created`, now with `status: "failed"` and the error, numbered after the
 * last event the client saw.
 * @module
 */
import type { GatewayError } from "../../core/errors.ts";
import { randomId } from "../../core/ids.ts";
import { sseTyped } from "../../sse/encode_sse.ts";
import type { StreamEnds } from "../codec.ts";
import { responsesErrorOf } from "./error_codes.ts";

const SEQUENCE = /"sequence_number"\s*:\s*(\d+)/g;

/** The sequence number after the last one in `text` (the last events forwarded), or null when
 * it names none. */
function nextSequence(text: string): number | null {
  let last: number | null = null;
  for (const match of text.matchAll(SEQUENCE)) last = Number(match[1]);
  return last === null ? null : last + 1;
}

/** A watcher for one Responses stream. */
export function responsesStreamEnds(): StreamEnds {
  let announced: Record<string, unknown> | null = null;
  return {
    pattern: /"response\.(created|completed|incomplete|failed)"|"type"\s*:\s*"error"/,
    see(event) {
      // A named terminal event needs no parse (response.completed carries the whole output,
      // and the usage tap parses it already).
      if (event.event === "response.completed" || event.event === "response.incomplete") {
        return "finish";
      }
      if (event.event === "response.failed" || event.event === "error") return "error";
      let payload: { type?: unknown; response?: unknown } | null;
      try {
        payload = JSON.parse(event.data);
      } catch {
        return null;
      }
      const type = payload?.type ?? event.event;
      if (type === "response.created" && typeof payload?.response === "object") {
        announced = payload.response as Record<string, unknown>;
        return null;
      }
      if (type === "response.completed" || type === "response.incomplete") return "finish";
      return type === "response.failed" || type === "error" ? "error" : null;
    },
    failure(error: GatewayError, lastEvents: string) {
      const response = {
        ...(announced ?? {
          id: `resp_${randomId()}`,
          object: "response",
          created_at: Math.floor(Date.now() / 1000),
          output: [],
        }),
        status: "failed",
        error: responsesErrorOf(error),
      };
      // Numbered after the last event the client got (the field is required on this wire).
      const event = {
        type: "response.failed",
        sequence_number: nextSequence(lastEvents) ?? 0,
        response,
      };
      return sseTyped(event);
    },
  };
}
