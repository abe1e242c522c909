import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import type { Usage } from "../../core/response.ts";
import type { StreamPart } from "../../core/stream.ts";
import type { EncodeContext } from "../codec.ts";
import { encodeStream } from "./encode_stream.ts";
import { sdkFinalCompletion } from "./sdk_check.ts";
import { coreRequest, pipe, sseOf } from "./test_support.ts";

const usage: Usage = {
  inputTokens: 10,
  outputTokens: 5,
  cacheReadTokens: 2,
  cacheWriteTokens: 0,
  reasoningTokens: 1,
};

const ctx = (includeStreamUsage = false): EncodeContext => ({
  clientModel: "client-model",
  request: coreRequest({ stream: true, ...(includeStreamUsage ? { includeStreamUsage } : {}) }),
});

const turn: StreamPart[] = [
  { type: "start", id: "msg_1", model: "upstream", created: 1700000000 },
  { type: "reasoning_start", index: 0 },
  { type: "reasoning_delta", index: 0, text: "hmm" },
  { type: "reasoning_token", index: 0, token: { vendor: "anthropic", value: "sig" } },
  { type: "reasoning_end", index: 0 },
  { type: "text_start", index: 1 },
  { type: "text_delta", index: 1, text: "Let me check." },
  { type: "text_end", index: 1 },
  { type: "tool_call_start", index: 2, id: "toolu_1", name: "weather", kind: "function" },
  { type: "tool_call_start", index: 3, id: "call_2", name: "apply_patch", kind: "custom" },
  { type: "tool_call_delta", index: 2, delta: '{"city":' },
  { type: "tool_call_delta", index: 3, delta: "*** Begin" },
  { type: "tool_call_delta", index: 2, delta: '"Paris"}' },
  { type: "tool_call_end", index: 2 },
  { type: "tool_call_end", index: 3 },
  { type: "finish", stopReason: "tool_use", usage },
];

async function chunks(parts: StreamPart[], c = ctx()) {
  const bytes = await pipe(parts, encodeStream(c));
  return { bytes, events: await sseOf(bytes) };
}

Deno.test("encodeStream: role first, one index per tool call, finish, [DONE]", async () => {
  const { events } = await chunks(turn);
  assert.equal(events.at(-1)?.data, "[DONE]");
  const payloads = events.slice(0, -1).map((e) => JSON.parse(e.data));
  for (const p of payloads) {
    assert.equal(p.id, "chatcmpl-msg_1");
    assert.equal(p.object, "chat.completion.chunk");
    assert.equal(p.created, 1700000000);
    assert.equal(p.model, "client-model");
  }
  const deltas = payloads.map((p) => p.choices[0].delta);
  assert.deepEqual(deltas[0], { role: "assistant", content: "" });
  assert.deepEqual(deltas[1], { reasoning_content: "hmm" });
  assert.deepEqual(deltas[2], { content: "Let me check." });
  assert.deepEqual(deltas[3].tool_calls, [
    { index: 0, id: "toolu_1", type: "function", function: { name: "weather", arguments: "" } },
  ]);
  assert.deepEqual(deltas[4].tool_calls, [
    { index: 1, id: "call_2", type: "custom", custom: { name: "apply_patch", input: "" } },
  ]);
  assert.deepEqual(deltas[6].tool_calls, [{ index: 1, custom: { input: "*** Begin" } }]);
  assert.equal(payloads.at(-1).choices[0].finish_reason, "tool_calls");
  assert.ok(payloads.every((p) => p.usage === undefined), "no usage chunk unless asked");
});

Deno.test("encodeStream satisfies the openai SDK's stream helper", async () => {
  const { bytes } = await chunks(turn, ctx(true));
  const completion = await sdkFinalCompletion(bytes, { includeUsage: true });
  const message = completion.choices[0]!.message;
  assert.equal(message.role, "assistant");
  assert.equal(message.content, "Let me check.");
  assert.deepEqual(message.tool_calls, [
    {
      id: "toolu_1",
      type: "function",
      function: { name: "weather", arguments: '{"city":"Paris"}' },
    },
    { id: "call_2", type: "custom", custom: { name: "apply_patch", input: "*** Begin" } },
  ]);
  assert.equal(completion.choices[0]!.finish_reason, "tool_calls");
  assert.equal(completion.model, "client-model");
  assert.deepEqual(completion.usage, {
    prompt_tokens: 10,
    completion_tokens: 5,
    total_tokens: 15,
    prompt_tokens_details: { cached_tokens: 2 },
    completion_tokens_details: { reasoning_tokens: 1 },
  });
});

Deno.test("encodeStream sends the usage chunk last when asked", async () => {
  const { events } = await chunks(turn, ctx(true));
  const usageChunk = JSON.parse(events.at(-2)!.data);
  assert.deepEqual(usageChunk.choices, []);
  assert.equal(usageChunk.usage.total_tokens, 15);
});

Deno.test("encodeStream separates consecutive text blocks like encodeResponse", async () => {
  const { bytes } = await chunks([
    { type: "start", id: "chatcmpl-9", model: "m", created: 1 },
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "one" },
    { type: "text_end", index: 0 },
    { type: "text_start", index: 1 },
    { type: "text_delta", index: 1, text: "two" },
    { type: "text_end", index: 1 },
    { type: "finish", stopReason: "end_turn", usage },
  ]);
  const completion = await sdkFinalCompletion(bytes);
  assert.equal(completion.id, "chatcmpl-9");
  assert.equal(completion.choices[0]!.message.content, "one\n\ntwo");
});

Deno.test("encodeStream ends an error with OpenAI's error event alone, no [DONE] after it", async () => {
  const error = new GatewayError("rate_limit", 429, "Slow down.", { code: "rate_limit_exceeded" });
  const { bytes, events } = await chunks([
    { type: "start", id: "x", model: "m", created: 1 },
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "par" },
    { type: "error", error },
    { type: "text_delta", index: 0, text: "ignored" },
  ]);
  assert.deepEqual(JSON.parse(events.at(-1)!.data), {
    error: {
      message: "Slow down.",
      type: "rate_limit_error",
      param: null,
      code: "rate_limit_exceeded",
    },
  });
  assert.ok(!events.some((event) => event.data === "[DONE]"));
  assert.equal(events.length, 3);
  await assert.rejects(() => sdkFinalCompletion(bytes), /Slow down/);
});

Deno.test("encodeStream closes a stream that ends without finish with an error chunk, no [DONE]", async () => {
  const { events } = await chunks([{ type: "text_delta", index: 0, text: "orphan" }]);
  assert.deepEqual(JSON.parse(events[0]!.data).choices[0].delta, {
    role: "assistant",
    content: "",
  });
  assert.equal(JSON.parse(events.at(-1)!.data).error.code, "stream_incomplete");
  assert.ok(!events.some((event) => event.data === "[DONE]"));
});

Deno.test("encodeStream sends a refusal's explanation as delta.refusal before the finish chunk", async () => {
  const parts: StreamPart[] = [
    { type: "start", id: "msg_r", model: "upstream", created: 1 },
    {
      type: "finish",
      stopReason: "refusal",
      stopDetails: { explanation: "Blocked by policy.", category: "cyber" },
      usage,
    },
  ];
  const { bytes, events } = await chunks(parts);
  const payloads = events.slice(0, -1).map((e) => JSON.parse(e.data));
  assert.deepEqual(
    payloads.map((p) => [p.choices[0].delta, p.choices[0].finish_reason]),
    [
      [{ role: "assistant", content: "" }, null],
      [{ refusal: "Blocked by policy." }, null],
      [{}, "content_filter"],
    ],
  );
  const final = await sdkFinalCompletion(bytes);
  assert.equal(final.choices[0]!.message.refusal, "Blocked by policy.");
  assert.equal(final.choices[0]!.finish_reason, "content_filter");
});
