/**
 * Usage between the core and Chat Completions. Chat `prompt_tokens` includes
 * `prompt_tokens_details.cached_tokens`, like the core's `inputTokens` includes
 * `cacheReadTokens`; chat has no cache-write count (it is part of `prompt_tokens`).
 * @module
 */
import type { Usage } from "../../core/response.ts";
import type { ChatUsage } from "./response_schemas.ts";

/** The `usage` object of a chat response or final chunk. */
export interface ChatUsageOut {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** Chat usage → core usage. Quirks: DeepSeek also reports `prompt_cache_hit_tokens` (used when
 * `cached_tokens` is absent); xAI leaves reasoning out of `completion_tokens` and counts it
 * only in `total_tokens` (see the xai fixtures: 307 + 26 + 255 = 588), so when the total equals
 * prompt + completion + reasoning, reasoning is added to the output to keep the core's rule
 * that `reasoningTokens` is part of `outputTokens`. */
export function fromChatUsage(usage: ChatUsage): Usage {
  const input = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ??
    0;
  const reasoningOutside = reasoning > 0 && usage.total_tokens != null &&
    usage.total_tokens === input + completion + reasoning;
  return {
    inputTokens: input,
    outputTokens: reasoningOutside ? completion + reasoning : completion,
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    reasoningTokens: reasoning,
  };
}

/** Core usage → chat usage. */
export function toChatUsage(usage: Usage): ChatUsageOut {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}
