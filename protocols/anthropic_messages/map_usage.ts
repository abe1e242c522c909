/**
 * Usage between the Anthropic wire and core. Anthropic's `input_tokens` EXCLUDES the tokens read
 * from or written to the prompt cache; core's `inputTokens` counts all of them.
 * @module
 */
import type { Usage } from "../../core/response.ts";
import type { WireUsage } from "./wire.ts";

/** Usage fields as they appear on the wire; every one may be absent or null. */
export interface AnthropicUsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

const n = (value: number | null | undefined): number => value ?? 0;

/** A complete wire usage → core usage (absent fields count as 0). */
export function usageFromAnthropic(u: AnthropicUsageFields): Usage {
  const cacheRead = n(u.cache_read_input_tokens);
  const cacheWrite = n(u.cache_creation_input_tokens);
  return {
    inputTokens: n(u.input_tokens) + cacheRead + cacheWrite,
    outputTokens: n(u.output_tokens),
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    reasoningTokens: n(u.output_tokens_details?.thinking_tokens),
  };
}

/** The fields one stream event reports → a partial core usage holding only what it said.
 * `inputTokens` is set only when `input_tokens` is present, and then includes the cache
 * counts the same event carries. */
export function partialUsageFromAnthropic(u: AnthropicUsageFields): Partial<Usage> {
  const out: Partial<Usage> = {};
  const cacheRead = u.cache_read_input_tokens;
  const cacheWrite = u.cache_creation_input_tokens;
  if (typeof cacheRead === "number") out.cacheReadTokens = cacheRead;
  if (typeof cacheWrite === "number") out.cacheWriteTokens = cacheWrite;
  if (typeof u.input_tokens === "number") {
    out.inputTokens = u.input_tokens + n(cacheRead) + n(cacheWrite);
  }
  if (typeof u.output_tokens === "number") out.outputTokens = u.output_tokens;
  const thinking = u.output_tokens_details?.thinking_tokens;
  if (typeof thinking === "number") out.reasoningTokens = thinking;
  return out;
}

/** Core usage → wire usage (`input_tokens` without the cache parts). */
export function usageToAnthropic(usage: Usage): WireUsage {
  const out: WireUsage = {
    input_tokens: Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens),
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
    output_tokens: usage.outputTokens,
  };
  if (usage.reasoningTokens > 0) {
    out.output_tokens_details = { thinking_tokens: usage.reasoningTokens };
  }
  return out;
}
