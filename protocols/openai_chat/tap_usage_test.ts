import assert from "node:assert/strict";
import { isUsageOnlyChunk, usageOfBody, usageOfEvent } from "./tap_usage.ts";

const usageChunk = {
  id: "c",
  object: "chat.completion.chunk",
  choices: [],
  usage: { prompt_tokens: 16, completion_tokens: 300, total_tokens: 316 },
};

Deno.test("usageOfEvent skips events without a usage object", () => {
  assert.equal(
    usageOfEvent({ data: '{"choices":[{"delta":{"content":"x"}}],"usage":null}' }),
    null,
  );
  assert.equal(usageOfEvent({ data: "[DONE]" }), null);
});

Deno.test("usageOfEvent reads the usage chunk and a finish chunk with usage", () => {
  assert.equal(usageOfEvent({ data: JSON.stringify(usageChunk) })?.outputTokens, 300);
  const finish = {
    choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
    usage: { prompt_tokens: 5, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 1 } },
  };
  assert.equal(usageOfEvent({ data: JSON.stringify(finish) })?.cacheReadTokens, 1);
});

Deno.test("usageOfBody reads a response body", () => {
  assert.equal(usageOfBody({ usage: { prompt_tokens: 3, completion_tokens: 4 } })?.inputTokens, 3);
  assert.equal(usageOfBody({ choices: [] }), null);
  assert.equal(usageOfBody("text"), null);
});

Deno.test("isUsageOnlyChunk spots only the choices-less usage chunk", () => {
  assert.equal(isUsageOnlyChunk({ data: JSON.stringify(usageChunk) }), true);
  assert.equal(
    isUsageOnlyChunk({
      data: JSON.stringify({ choices: [{ index: 0, delta: {} }], usage: usageChunk.usage }),
    }),
    false,
  );
  assert.equal(isUsageOnlyChunk({ data: '{"choices":[],"usage":null}' }), false);
});
