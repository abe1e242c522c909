import assert from "node:assert/strict";
import { usageOfBody, usageOfEvent } from "./tap_usage.ts";

Deno.test("usageOfEvent reads message_start and message_delta only", () => {
  const start = usageOfEvent({
    event: "message_start",
    data: JSON.stringify({
      type: "message_start",
      message: {
        usage: { input_tokens: 5, cache_read_input_tokens: 10, output_tokens: 1 },
      },
    }),
  });
  assert.deepEqual(start, { inputTokens: 15, cacheReadTokens: 10, outputTokens: 1 });
  const delta = usageOfEvent({
    event: "message_delta",
    data: '{"type":"message_delta","delta":{},"usage":{"output_tokens":42}}',
  });
  assert.deepEqual(delta, { outputTokens: 42 });
  assert.equal(usageOfEvent({ event: "content_block_delta", data: "not even json" }), null);
  assert.equal(usageOfEvent({ event: "ping", data: '{"type":"ping"}' }), null);
});

Deno.test("usageOfEvent handles unnamed events and bad JSON", () => {
  const unnamed = usageOfEvent({
    data: '{"type":"message_delta","usage":{"input_tokens":61,"output_tokens":2}}',
  });
  assert.deepEqual(unnamed, { inputTokens: 61, outputTokens: 2 });
  assert.equal(usageOfEvent({ data: '{"type":"content_block_stop","index":0}' }), null);
  assert.equal(usageOfEvent({ event: "message_delta", data: "{broken" }), null);
});

Deno.test("usageOfBody reads a message body", () => {
  assert.deepEqual(
    usageOfBody({ usage: { input_tokens: 1, cache_creation_input_tokens: 2, output_tokens: 3 } }),
    {
      inputTokens: 3,
      outputTokens: 3,
      cacheReadTokens: 0,
      cacheWriteTokens: 2,
      reasoningTokens: 0,
    },
  );
  assert.equal(usageOfBody({ id: "x" }), null);
  assert.equal(usageOfBody(null), null);
});
