import assert from "node:assert/strict";
import { usageFromResponses, usageToResponses } from "./map_usage.ts";

Deno.test("usage: cached tokens are part of input, reasoning part of output, both ways", () => {
  const core = usageFromResponses({
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 60 },
    output_tokens: 30,
    output_tokens_details: { reasoning_tokens: 20 },
  });
  assert.deepEqual(core, {
    inputTokens: 100,
    outputTokens: 30,
    cacheReadTokens: 60,
    cacheWriteTokens: 0,
    reasoningTokens: 20,
  });
  assert.deepEqual(usageToResponses({ ...core, cacheWriteTokens: 10 }), {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 60 },
    output_tokens: 30,
    output_tokens_details: { reasoning_tokens: 20 },
    total_tokens: 130,
  });
  assert.deepEqual(usageFromResponses({ input_tokens: null }), {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  });
});
