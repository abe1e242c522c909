import assert from "node:assert/strict";
import type { CoreResponse } from "../../core/response.ts";
import { emptyUsage } from "../../core/response.ts";
import { anthropicMessageId, encodeResponse } from "./encode_response.ts";
import { encodeContext } from "./testing.ts";

const response = (fields: Partial<CoreResponse>): CoreResponse => ({
  id: "chatcmpl-1",
  model: "gpt-x",
  content: [],
  stopReason: "end_turn",
  usage: emptyUsage(),
  created: 0,
  ...fields,
});

Deno.test("anthropicMessageId keeps msg_ ids and prefixes others", () => {
  assert.equal(anthropicMessageId("msg_01"), "msg_01");
  assert.equal(anthropicMessageId("resp_9"), "msg_resp_9");
});

Deno.test("encodeResponse writes a message with the client's model and mapped fields", () => {
  const { value, warnings } = encodeResponse(
    response({
      content: [
        { type: "text", text: "hi" },
        { type: "tool_call", id: "call_1", name: "get", arguments: '{"q":"x"}', kind: "function" },
        {
          type: "tool_call",
          id: "call_2",
          name: "apply_patch",
          arguments: "*** Begin",
          kind: "custom",
        },
      ],
      stopReason: "content_filter",
      stopSequence: "END",
      usage: {
        inputTokens: 100,
        outputTokens: 20,
        cacheReadTokens: 60,
        cacheWriteTokens: 0,
        reasoningTokens: 5,
      },
    }),
    encodeContext({}, "claude-opus-5-5"),
  );
  assert.equal(warnings.length, 0);
  assert.deepEqual(value, {
    id: "msg_chatcmpl-1",
    type: "message",
    role: "assistant",
    model: "claude-opus-5-5",
    content: [
      { type: "text", text: "hi" },
      { type: "tool_use", id: "call_1", name: "get", input: { q: "x" } },
      { type: "tool_use", id: "call_2", name: "apply_patch", input: { input: "*** Begin" } },
    ],
    stop_reason: "refusal",
    stop_sequence: "END",
    stop_details: null,
    usage: {
      input_tokens: 40,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 60,
      output_tokens: 20,
      output_tokens_details: { thinking_tokens: 5 },
    },
  });
});

Deno.test("encodeResponse keeps Anthropic signatures and drops other vendors' tokens", () => {
  const { value, warnings } = encodeResponse(
    response({
      content: [
        { type: "reasoning", text: "signed", token: { vendor: "anthropic", value: "sig" } },
        {
          type: "reasoning",
          text: "",
          redacted: true,
          token: { vendor: "anthropic", value: "opaque" },
        },
        {
          type: "reasoning",
          text: "summary",
          summary: true,
          token: { vendor: "openai", value: "enc" },
        },
        { type: "reasoning", text: "", token: { vendor: "openai", value: "enc2" } },
      ],
    }),
    encodeContext(),
  );
  assert.deepEqual(value.content, [
    { type: "thinking", thinking: "signed", signature: "sig" },
    { type: "redacted_thinking", data: "opaque" },
    { type: "thinking", thinking: "summary", signature: "" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["content.2.token", "content.3.token"]);
  assert.equal(
    warnings[0]?.message,
    "a reasoning token issued by openai cannot be returned to an Anthropic client; dropped",
  );
});

Deno.test("encodeResponse omits thinking text when the client asked for display omitted", () => {
  const { value } = encodeResponse(
    response({
      content: [
        { type: "reasoning", text: "secret", token: { vendor: "anthropic", value: "sig" } },
        { type: "reasoning", text: "unsigned" },
        { type: "text", text: "answer" },
      ],
    }),
    encodeContext({ reasoning: { mode: "adaptive", display: "omitted" } }),
  );
  assert.deepEqual(value.content, [
    { type: "thinking", thinking: "", signature: "sig" },
    { type: "text", text: "answer" },
  ]);
});

Deno.test("encodeResponse warns when tool arguments are not a JSON object", () => {
  const { value, warnings } = encodeResponse(
    response({
      content: [{ type: "tool_call", id: "c", name: "f", arguments: "not json", kind: "function" }],
    }),
    encodeContext(),
  );
  assert.deepEqual(value.content, [{ type: "tool_use", id: "c", name: "f", input: {} }]);
  assert.deepEqual(warnings.map((w) => w.field), ["content.0.arguments"]);
});

Deno.test("encodeResponse writes a refusal's stop details, null for what core does not know", () => {
  const full = encodeResponse(
    response({
      stopReason: "refusal",
      stopDetails: { explanation: "Blocked by policy.", category: "cyber" },
    }),
    encodeContext(),
  );
  assert.deepEqual(full.warnings, []);
  assert.equal(full.value.stop_reason, "refusal");
  assert.deepEqual(full.value.stop_details, {
    type: "refusal",
    category: "cyber",
    explanation: "Blocked by policy.",
  });
  // An OpenAI refusal has an explanation and no category.
  const partial = encodeResponse(
    response({ stopReason: "refusal", stopDetails: { explanation: "I can't." } }),
    encodeContext(),
  );
  assert.deepEqual(partial.value.stop_details, {
    type: "refusal",
    category: null,
    explanation: "I can't.",
  });
});
