/**
 * Usage between the Responses wire and core. Like core, Responses' `input_tokens` INCLUDES the
 * cached tokens (`input_tokens_details.cached_tokens`) and `output_tokens` includes the reasoning
 * tokens. OpenAI reports no cache writes, so `cacheWriteTokens` is 0 on the way in and stays
 * part of `input_tokens` on the way out.
 * @module
 */
import type { Usage } from "../../core/response.ts";
import type { WireUsage } from "./wire.ts";

/** Usage fields as they appear on the wire; every one may be absent or null. */
export interface ResponsesUsageFields {
  input_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens?: number | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

const n = (value: number | null | undefined): number => (typeof value === "number" ? value : 0);

/** Wire usage → core usage (absent fields count as 0). */
export function usageFromResponses(u: ResponsesUsageFields): Usage {
  return {
    inputTokens: n(u.input_tokens),
    outputTokens: n(u.output_tokens),
    cacheReadTokens: n(u.input_tokens_details?.cached_tokens),
    cacheWriteTokens: 0,
    reasoningTokens: n(u.output_tokens_details?.reasoning_tokens),
  };
}

/** Core usage → wire usage. */
export function usageToResponses(usage: Usage): WireUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
