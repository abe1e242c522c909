/**
 * The internal response, stop reasons and usage.
 * @module
 */
import type { AssistantPart } from "./content.ts";

/** Why generation stopped. One value per distinct meaning; encoders map each one to one where
 * the target has a match. */
export type StopReason =
  | "end_turn"
  | "max_tokens"
  | "tool_use"
  | "stop_sequence"
  | "refusal"
  | "pause_turn"
  | "content_filter"
  | "context_window_exceeded";

/** Token usage. `inputTokens` counts every input token, cached ones included;
 * `cacheReadTokens` and `cacheWriteTokens` are the parts of it read from and written to the
 * prompt cache. `reasoningTokens` is the part of `outputTokens` spent reasoning. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

/** A zeroed usage record. */
export function emptyUsage(): Usage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
}

/** What the upstream said about why it declined (Anthropic `stop_details` of type `refusal`, an
 * OpenAI `refusal` message field or content part). The explanation is meant for the user, so
 * every client encoder shows it in its own refusal field. */
export interface StopDetails {
  /** Human-readable reason for the refusal (OpenAI's refusal text is this). */
  explanation?: string;
  /** The provider's policy category (Anthropic: `cyber`, `bio`, ...). */
  category?: string;
}

/** A complete, non-streamed response. */
export interface CoreResponse {
  id: string;
  model: string;
  content: AssistantPart[];
  stopReason: StopReason;
  stopSequence?: string;
  /** Why the model declined, when the upstream said; usually with stop reason `refusal`. */
  stopDetails?: StopDetails;
  usage: Usage;
  /** Unix seconds. */
  created: number;
}
