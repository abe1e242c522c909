import assert from "node:assert/strict";
import type { CoreResponse } from "../../core/response.ts";
import { chatCompletionId, encodeResponse } from "./encode_response.ts";
import { sdkCompletion } from "./sdk_check.ts";
import { coreRequest } from "./test_support.ts";

const ctx = { clientModel: "alias", request: coreRequest() };
const response = (overrides: Partial<CoreResponse>): CoreResponse => ({
  id: "msg_1",
  model: "upstream",
  content: [],
  stopReason: "end_turn",
  usage: {
    inputTokens: 7,
    outputTokens: 3,
    cacheReadTokens: 1,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  },
  created: 9,
  ...overrides,
});

Deno.test("encodeResponse builds a chat.completion with reasoning_content and tool calls", () => {
  const { value, warnings } = encodeResponse(
    response({
      content: [
        { type: "reasoning", text: "why", token: { vendor: "anthropic", value: "sig" } },
        { type: "text", text: "Here." },
        { type: "tool_call", id: "t1", name: "f", arguments: '{"a":1}', kind: "function" },
        { type: "tool_call", id: "t2", name: "patch", arguments: "raw", kind: "custom" },
      ],
      stopReason: "tool_use",
      stopSequence: "###",
    }),
    ctx,
  );
  assert.deepEqual(value, {
    id: "chatcmpl-msg_1",
    object: "chat.completion",
    created: 9,
    model: "alias",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: "Here.",
        refusal: null,
        tool_calls: [
          { id: "t1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
          { id: "t2", type: "custom", custom: { name: "patch", input: "raw" } },
        ],
        reasoning_content: "why",
      },
      logprobs: null,
      finish_reason: "tool_calls",
    }],
    usage: {
      prompt_tokens: 7,
      completion_tokens: 3,
      total_tokens: 10,
      prompt_tokens_details: { cached_tokens: 1 },
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  });
  assert.deepEqual(warnings.map((w) => w.field), ["content.0.token", "stopSequence"]);
});

Deno.test("encodeResponse: null content for tool-only turns, empty string for empty turns", () => {
  const toolOnly = encodeResponse(
    response({
      content: [{ type: "tool_call", id: "t", name: "f", arguments: "{}", kind: "function" }],
    }),
    ctx,
  );
  assert.equal(toolOnly.value.choices[0].message.content, null);
  assert.equal(encodeResponse(response({}), ctx).value.choices[0].message.content, "");
});

Deno.test("encodeResponse maps a refusal to content_filter", () => {
  const { value } = encodeResponse(
    response({ content: [{ type: "text", text: "I can't help." }], stopReason: "refusal" }),
    ctx,
  );
  assert.equal(value.choices[0].finish_reason, "content_filter");
  assert.equal(value.choices[0].message.content, "I can't help.");
});

Deno.test("encodeResponse puts a refusal's explanation in message.refusal", async () => {
  const { value, warnings } = encodeResponse(
    response({
      stopReason: "refusal",
      stopDetails: { explanation: "Blocked by policy.", category: "cyber" },
    }),
    ctx,
  );
  const message = value.choices[0].message;
  assert.equal(message.refusal, "Blocked by policy.");
  assert.equal(message.content, "");
  assert.equal(value.choices[0].finish_reason, "content_filter");
  assert.deepEqual(warnings.map((w) => w.field), ["stopDetails.category"]);
  const completion = await sdkCompletion(value);
  assert.equal(completion.choices[0]!.message.refusal, "Blocked by policy.");
  const plain = encodeResponse(response({ stopDetails: { explanation: "No." } }), ctx);
  assert.deepEqual(plain.warnings, []);
});

Deno.test("the openai SDK reads encodeResponse's body", async () => {
  const { value } = encodeResponse(response({ content: [{ type: "text", text: "hi" }] }), ctx);
  const completion = await sdkCompletion(value);
  assert.equal(completion.choices[0]!.message.content, "hi");
  assert.equal(completion.usage?.total_tokens, 10);
});

Deno.test("chatCompletionId prefixes foreign ids once", () => {
  assert.equal(chatCompletionId("chatcmpl-abc"), "chatcmpl-abc");
  assert.equal(chatCompletionId("msg_1"), "chatcmpl-msg_1");
});
