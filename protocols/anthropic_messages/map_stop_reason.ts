/**
 * Stop reasons between the Anthropic wire and core, one to one where both sides have the value.
 * @module
 */
import type { StopReason } from "../../core/response.ts";

const FROM_WIRE: Readonly<Record<string, StopReason>> = {
  end_turn: "end_turn",
  max_tokens: "max_tokens",
  tool_use: "tool_use",
  stop_sequence: "stop_sequence",
  refusal: "refusal",
  pause_turn: "pause_turn",
  model_context_window_exceeded: "context_window_exceeded",
};

/** Anthropic `stop_reason` → core, or `undefined` for a value this gateway does not know (the
 * caller decides and warns). */
export function stopReasonFromAnthropic(reason: string | null | undefined): StopReason | undefined {
  if (reason === null || reason === undefined) return undefined;
  return Object.hasOwn(FROM_WIRE, reason) ? FROM_WIRE[reason] : undefined;
}

/** Core stop reason → Anthropic `stop_reason`. `content_filter` has no Anthropic value of its
 * own; `refusal` (the model declined) is the one with that meaning. */
export function stopReasonToAnthropic(reason: StopReason): string {
  switch (reason) {
    case "end_turn":
    case "max_tokens":
    case "tool_use":
    case "stop_sequence":
    case "refusal":
    case "pause_turn":
      return reason;
    case "content_filter":
      return "refusal";
    case "context_window_exceeded":
      return "model_context_window_exceeded";
  }
}
