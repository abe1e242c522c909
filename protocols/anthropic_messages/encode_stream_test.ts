import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import type { StreamPart } from "../../core/stream.ts";
import { assertValidMessagesStream, encodeContext, encodeParts } from "./testing.ts";

const usage = {
  inputTokens: 0,
  outputTokens: 7,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
};
const start: StreamPart = {
  type: "start",
  id: "chatcmpl-9",
  model: "gpt-x",
  created: 0,
  usage: { inputTokens: 50, cacheReadTokens: 20 },
};
const finish: StreamPart = { type: "finish", stopReason: "end_turn", usage };

Deno.test("encodeStream writes message_start with the client model and input usage", async () => {
  const out = await encodeParts([start, finish], encodeContext({}, "claude-opus-5-5"));
  assertValidMessagesStream(out);
  assert.deepEqual(out[0]!.json, {
    type: "message_start",
    message: {
      id: "msg_chatcmpl-9",
      type: "message",
      role: "assistant",
      model: "claude-opus-5-5",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 30,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 20,
        output_tokens: 0,
      },
    },
  });
  // Input unknown at the end (0): message_delta reports output only.
  assert.deepEqual(out[1]!.json, {
    type: "message_delta",
    delta: { stop_reason: "end_turn", stop_sequence: null },
    usage: { output_tokens: 7 },
  });
});

Deno.test("encodeStream reports input usage in message_delta when the finish knows it", async () => {
  const out = await encodeParts([
    start,
    {
      ...finish,
      stopReason: "max_tokens",
      usage: { ...usage, inputTokens: 61, cacheWriteTokens: 1 },
    },
  ]);
  assert.deepEqual(out[1]!.json.usage, {
    output_tokens: 7,
    input_tokens: 60,
    cache_creation_input_tokens: 1,
    cache_read_input_tokens: 0,
  });
  assert.equal((out[1]!.json.delta as Record<string, unknown>).stop_reason, "max_tokens");
});

Deno.test("encodeStream opens blocks at their first content and skips empty ones", async () => {
  const out = await encodeParts([
    start,
    { type: "text_start", index: 0 },
    { type: "text_end", index: 0 },
    { type: "reasoning_start", index: 1 },
    { type: "reasoning_token", index: 1, token: { vendor: "openai", value: "enc" } },
    { type: "reasoning_end", index: 1 },
    { type: "text_start", index: 2 },
    { type: "text_delta", index: 2, text: "" },
    { type: "text_delta", index: 2, text: "Hi" },
    { type: "text_end", index: 2 },
    finish,
  ]);
  assertValidMessagesStream(out);
  assert.deepEqual(out.map((e) => e.json.type), [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
  ]);
  assert.deepEqual(out[1]!.json, {
    type: "content_block_start",
    index: 0,
    content_block: { type: "text", text: "" },
  });
});

Deno.test("encodeStream writes thinking with its signature and redacted thinking whole", async () => {
  const out = await encodeParts([
    start,
    { type: "reasoning_start", index: 0 },
    { type: "reasoning_delta", index: 0, text: "think" },
    { type: "reasoning_token", index: 0, token: { vendor: "anthropic", value: "sig" } },
    { type: "reasoning_end", index: 0 },
    { type: "reasoning_start", index: 1 },
    { type: "reasoning_token", index: 1, token: { vendor: "anthropic", value: "opaque" } },
    { type: "reasoning_end", index: 1, redacted: true },
    { type: "reasoning_start", index: 2 },
    { type: "reasoning_token", index: 2, token: { vendor: "anthropic", value: "sig-only" } },
    { type: "reasoning_end", index: 2 },
    finish,
  ]);
  assertValidMessagesStream(out);
  assert.deepEqual(out.slice(1, -2).map((e) => e.json), [
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "thinking", thinking: "", signature: "" },
    },
    { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "think" } },
    { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
    { type: "content_block_stop", index: 0 },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "redacted_thinking", data: "opaque" },
    },
    { type: "content_block_stop", index: 1 },
    {
      type: "content_block_start",
      index: 2,
      content_block: { type: "thinking", thinking: "", signature: "" },
    },
    {
      type: "content_block_delta",
      index: 2,
      delta: { type: "signature_delta", signature: "sig-only" },
    },
    { type: "content_block_stop", index: 2 },
  ]);
});

Deno.test("encodeStream hides thinking text when the client asked for display omitted", async () => {
  const out = await encodeParts(
    [
      start,
      { type: "reasoning_start", index: 0 },
      { type: "reasoning_delta", index: 0, text: "secret" },
      { type: "reasoning_end", index: 0 },
      finish,
    ],
    encodeContext({ reasoning: { mode: "adaptive", display: "omitted" } }),
  );
  assert.deepEqual(out.map((e) => e.json.type), ["message_start", "message_delta", "message_stop"]);
});

Deno.test("encodeStream streams tool input and wraps custom tool input at its end", async () => {
  const out = await encodeParts([
    start,
    { type: "tool_call_start", index: 0, id: "call_1", name: "get", kind: "function" },
    { type: "tool_call_delta", index: 0, delta: '{"q":' },
    { type: "tool_call_delta", index: 0, delta: '"x"}' },
    { type: "tool_call_end", index: 0 },
    { type: "tool_call_start", index: 1, id: "call_2", name: "apply_patch", kind: "custom" },
    { type: "tool_call_delta", index: 1, delta: "*** Begin" },
    { type: "tool_call_delta", index: 1, delta: " Patch" },
    { type: "tool_call_end", index: 1 },
    { ...finish, stopReason: "tool_use" },
  ]);
  assertValidMessagesStream(out);
  assert.deepEqual(out[1]!.json.content_block, {
    type: "tool_use",
    id: "call_1",
    name: "get",
    input: {},
  });
  assert.deepEqual(
    out.filter((e) => e.json.type === "content_block_delta").map((e) => e.json.delta),
    [
      { type: "input_json_delta", partial_json: '{"q":' },
      { type: "input_json_delta", partial_json: '"x"}' },
      { type: "input_json_delta", partial_json: '{"input":"*** Begin Patch"}' },
    ],
  );
});

Deno.test("encodeStream closes open blocks before message_delta", async () => {
  const out = await encodeParts([
    start,
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "a" },
    { type: "tool_call_start", index: 1, id: "c", name: "f", kind: "function" },
    { type: "tool_call_delta", index: 1, delta: "{}" },
    { type: "text_delta", index: 0, text: "b" },
    { ...finish, stopReason: "tool_use" },
  ]);
  assertValidMessagesStream(out);
  assert.deepEqual(
    out.filter((e) => e.json.type === "content_block_stop").map((e) => e.json.index),
    [0, 1],
  );
});

Deno.test("encodeStream ends with an error event after an error part", async () => {
  const out = await encodeParts([
    start,
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "a" },
    { type: "error", error: new GatewayError("rate_limit", 429, "Provider returned HTTP 429") },
    finish,
  ]);
  assertValidMessagesStream(out);
  assert.deepEqual(out.at(-1), {
    event: "error",
    json: {
      type: "error",
      error: { type: "rate_limit_error", message: "Provider returned HTTP 429" },
    },
  });
});

Deno.test("encodeStream ends with an error event when the parts stop early", async () => {
  const out = await encodeParts([start, { type: "text_start", index: 0 }]);
  const last = out.at(-1)!.json as { type: string; error: { type: string } };
  assert.equal(last.type, "error");
  assert.equal(last.error.type, "api_error");
});

Deno.test("encodeStream writes message_start itself when content comes first", async () => {
  const out = await encodeParts([
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "x" },
    { type: "text_end", index: 0 },
    finish,
  ]);
  assertValidMessagesStream(out);
  assert.match((out[0]!.json.message as { id: string }).id, /^msg_/);
});

Deno.test("encodeStream writes a refusal's stop_details in message_delta", async () => {
  const out = await encodeParts([
    start,
    {
      ...finish,
      stopReason: "refusal",
      stopDetails: { explanation: "Blocked by policy.", category: "cyber" },
    },
  ]);
  assertValidMessagesStream(out);
  assert.deepEqual(out[1]!.json.delta, {
    stop_reason: "refusal",
    stop_sequence: null,
    stop_details: { type: "refusal", category: "cyber", explanation: "Blocked by policy." },
  });
});
