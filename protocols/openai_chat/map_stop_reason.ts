/**
 * Stop reasons between the core and Chat Completions `finish_reason`.
 *
 * | core                      | → chat           | chat → core                         |
 * |---------------------------|------------------|-------------------------------------|
 * | `end_turn`                | `stop`           | `stop` → `end_turn`                 |
 * | `stop_sequence`           | `stop`           | (chat does not say a stop sequence matched) |
 * | `max_tokens`              | `length`         | `length` → `max_tokens`             |
 * | `tool_use`                | `tool_calls`     | `tool_calls`, `function_call` → `tool_use` |
 * | `refusal`                 | `content_filter` | a `refusal` message field → `refusal` |
 * | `content_filter`          | `content_filter` | `content_filter` → `content_filter` |
 * | `pause_turn`              | `stop`           | —                                   |
 * | `context_window_exceeded` | `length`         | —                                   |
 *
 * Chat has four values for eight meanings, so the encode direction is lossy by necessity:
 * `stop_sequence` and `pause_turn` (a server-tool loop paused; the turn is over for a chat
 * client) become `stop`, `context_window_exceeded` becomes `length` (output was cut short).
 * @module
 */
import type { StopReason } from "../../core/response.ts";
import { assertNever } from "../../core/stream.ts";

/** A chat `finish_reason` the gateway emits. */
export type ChatFinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/** Core stop reason → chat `finish_reason`. */
export function toFinishReason(reason: StopReason): ChatFinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
      return "stop";
    case "max_tokens":
    case "context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "refusal":
    case "content_filter":
      return "content_filter";
    default:
      return assertNever(reason, "stop reason");
  }
}

/** What a chat response said about how it ended. */
export interface FinishFacts {
  finishReason: string | null | undefined;
  /** The message carried a `refusal`. */
  refused: boolean;
  /** The message carried tool calls. */
  hasToolCalls: boolean;
}

/** Chat `finish_reason` → core stop reason. Quirks: some compat servers (older Ollama, some
 * vLLM parsers) answer `stop` although the message holds tool calls, which is a tool turn; an
 * OpenAI refusal ends with `stop` plus a `refusal` field, which is the core's `refusal`;
 * unknown values (`eos`, DeepSeek's `insufficient_system_resource`) and a missing value are a
 * plain end of turn. */
export function fromFinishReason(facts: FinishFacts): StopReason {
  switch (facts.finishReason) {
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "content_filter";
    default:
      if (facts.refused) return "refusal";
      return facts.hasToolCalls ? "tool_use" : "end_turn";
  }
}
