import assert from "node:assert/strict";
import { fromChatUsage, toChatUsage } from "./map_usage.ts";

Deno.test("fromChatUsage keeps cached tokens inside input and reasoning inside output", () => {
  const usage = fromChatUsage({
    prompt_tokens: 339,
    completion_tokens: 92,
    total_tokens: 431,
    prompt_tokens_details: { cached_tokens: 320 },
    completion_tokens_details: { reasoning_tokens: 48 },
  });
  assert.deepEqual(usage, {
    inputTokens: 339,
    outputTokens: 92,
    cacheReadTokens: 320,
    cacheWriteTokens: 0,
    reasoningTokens: 48,
  });
});

Deno.test("fromChatUsage adds xAI's reasoning, counted outside completion_tokens", () => {
  const usage = fromChatUsage({
    prompt_tokens: 307,
    completion_tokens: 26,
    total_tokens: 588,
    prompt_tokens_details: { cached_tokens: 244 },
    completion_tokens_details: { reasoning_tokens: 255 },
  });
  assert.equal(usage.outputTokens, 281);
  assert.equal(usage.reasoningTokens, 255);
});

Deno.test("fromChatUsage falls back to DeepSeek's prompt_cache_hit_tokens and tolerates gaps", () => {
  assert.equal(fromChatUsage({ prompt_tokens: 10, prompt_cache_hit_tokens: 4 }).cacheReadTokens, 4);
  assert.deepEqual(fromChatUsage({}), {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  });
});

Deno.test("toChatUsage reports totals and details", () => {
  assert.deepEqual(
    toChatUsage({
      inputTokens: 100,
      outputTokens: 40,
      cacheReadTokens: 60,
      cacheWriteTokens: 10,
      reasoningTokens: 15,
    }),
    {
      prompt_tokens: 100,
      completion_tokens: 40,
      total_tokens: 140,
      prompt_tokens_details: { cached_tokens: 60 },
      completion_tokens_details: { reasoning_tokens: 15 },
    },
  );
});
