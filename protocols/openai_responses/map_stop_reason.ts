/**
 * Stop reasons between the Responses wire and core. Responses reports a status
 * (`completed`/`incomplete`) with `incomplete_details.reason`, not a finish reason, so a
 * completed response's reason comes from its content (tool calls, refusals).
 *
 * | core                      | Responses                                          |
 * |---------------------------|----------------------------------------------------|
 * | end_turn                  | completed                                          |
 * | tool_use                  | completed (with function/custom/local shell calls) |
 * | refusal                   | completed (with refusal content)                   |
 * | stop_sequence             | completed (Responses has no stop sequences)        |
 * | pause_turn                | completed (no counterpart; the client sees a turn) |
 * | max_tokens                | incomplete, reason max_output_tokens               |
 * | context_window_exceeded   | incomplete, reason max_output_tokens (cut short)   |
 * | content_filter            | incomplete, reason content_filter                  |
 * @module
 */
import type { StopReason } from "../../core/response.ts";
import { assertNever } from "../../core/stream.ts";

/** How a response ends on the wire. */
export interface ResponsesEnding {
  status: "completed" | "incomplete";
  reason?: "max_output_tokens" | "content_filter";
}

/** Core stop reason → response status and incomplete reason. */
export function endingOf(stopReason: StopReason): ResponsesEnding {
  switch (stopReason) {
    case "end_turn":
    case "tool_use":
    case "refusal":
    case "stop_sequence":
    case "pause_turn":
      return { status: "completed" };
    case "max_tokens":
    case "context_window_exceeded":
      return { status: "incomplete", reason: "max_output_tokens" };
    case "content_filter":
      return { status: "incomplete", reason: "content_filter" };
    default:
      return assertNever(stopReason, "stop reason");
  }
}

/** What a completed response carried, for picking its core stop reason. */
export interface CompletedContent {
  toolCall: boolean;
  refusal: boolean;
}

/** Response status (+ incomplete reason, + content) → core stop reason. An incomplete response
 * with a reason OpenAI has not documented (`max_messages`, `steered`, or none) was cut short,
 * which `max_tokens` says most nearly. */
export function stopReasonOf(
  status: string,
  reason: string | null | undefined,
  content: CompletedContent,
): StopReason {
  if (status === "incomplete") return reason === "content_filter" ? "content_filter" : "max_tokens";
  if (content.toolCall) return "tool_use";
  if (content.refusal) return "refusal";
  return "end_turn";
}
