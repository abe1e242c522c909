import assert from "node:assert/strict";
import { partialUsageFromAnthropic, usageFromAnthropic, usageToAnthropic } from "./map_usage.ts";

Deno.test("usageFromAnthropic adds the cache counts into inputTokens", () => {
  assert.deepEqual(
    usageFromAnthropic({
      input_tokens: 10,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 20,
      output_tokens: 50,
      output_tokens_details: { thinking_tokens: 30 },
    }),
    {
      inputTokens: 130,
      outputTokens: 50,
      cacheReadTokens: 100,
      cacheWriteTokens: 20,
      reasoningTokens: 30,
    },
  );
  assert.deepEqual(usageFromAnthropic({ input_tokens: 5, cache_read_input_tokens: null }), {
    inputTokens: 5,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  });
});

Deno.test("partialUsageFromAnthropic keeps only the fields the event carried", () => {
  assert.deepEqual(partialUsageFromAnthropic({ output_tokens: 7 }), { outputTokens: 7 });
  assert.deepEqual(
    partialUsageFromAnthropic({
      input_tokens: 3,
      cache_read_input_tokens: 4,
      cache_creation_input_tokens: 0,
      output_tokens: 1,
    }),
    { inputTokens: 7, cacheReadTokens: 4, cacheWriteTokens: 0, outputTokens: 1 },
  );
});

Deno.test("usageToAnthropic subtracts the cache parts from input_tokens", () => {
  assert.deepEqual(
    usageToAnthropic({
      inputTokens: 130,
      outputTokens: 50,
      cacheReadTokens: 100,
      cacheWriteTokens: 20,
      reasoningTokens: 30,
    }),
    {
      input_tokens: 10,
      cache_creation_input_tokens: 20,
      cache_read_input_tokens: 100,
      output_tokens: 50,
      output_tokens_details: { thinking_tokens: 30 },
    },
  );
  const plain = usageToAnthropic({
    inputTokens: 12,
    outputTokens: 3,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  });
  assert.equal(plain.input_tokens, 12);
  assert.equal("output_tokens_details" in plain, false);
});
