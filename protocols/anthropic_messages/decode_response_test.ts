import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { shortenToolName } from "../tool_names.ts";
import { decodeResponse } from "./decode_response.ts";
import { coreRequest } from "./testing.ts";

const message = (content: unknown[], extra: Record<string, unknown> = {}) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-x",
  content,
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: {
    input_tokens: 10,
    cache_read_input_tokens: 5,
    cache_creation_input_tokens: 1,
    output_tokens: 3,
  },
  ...extra,
});

Deno.test("decodeResponse reads text, thinking, redacted thinking and usage", () => {
  const { value, warnings } = decodeResponse(
    message([
      { type: "thinking", thinking: "t", signature: "sig" },
      { type: "redacted_thinking", data: "opaque" },
      { type: "text", text: "answer" },
    ], { stop_reason: "stop_sequence", stop_sequence: "###" }),
    coreRequest(),
    "anthropic",
  );
  assert.equal(warnings.length, 0);
  assert.deepEqual(value.content, [
    { type: "reasoning", text: "t", token: { vendor: "anthropic", value: "sig" } },
    {
      type: "reasoning",
      text: "",
      redacted: true,
      token: { vendor: "anthropic", value: "opaque" },
    },
    { type: "text", text: "answer" },
  ]);
  assert.equal(value.stopReason, "stop_sequence");
  assert.equal(value.stopSequence, "###");
  assert.deepEqual(value.usage, {
    inputTokens: 16,
    outputTokens: 3,
    cacheReadTokens: 5,
    cacheWriteTokens: 1,
    reasoningTokens: 0,
  });
});

Deno.test("decodeResponse drops server tool blocks with a warning", () => {
  const { value, warnings } = decodeResponse(
    message([
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
      { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
      { type: "text", text: "found", citations: [{ type: "web_search_result_location" }] },
    ]),
    coreRequest(),
    "anthropic",
  );
  assert.deepEqual(value.content, [{ type: "text", text: "found" }]);
  assert.deepEqual(warnings.map((w) => w.field), ["content.0", "content.1", "content.2.citations"]);
});

Deno.test("decodeResponse restores long tool names and unwraps custom tool input", () => {
  const long = "mcp__a_server_with_a_rather_long_name__and_a_tool_with_a_long_name_too";
  const request = coreRequest({
    tools: [
      { type: "function", name: long, parameters: {} },
      { type: "custom", name: "apply_patch" },
    ],
  });
  const { value } = decodeResponse(
    message([
      { type: "tool_use", id: "toolu_1", name: shortenToolName(long), input: { a: 1 } },
      { type: "tool_use", id: "toolu_2", name: "apply_patch", input: { input: "*** Begin Patch" } },
    ], { stop_reason: "tool_use" }),
    request,
    "anthropic",
  );
  assert.deepEqual(value.content, [
    { type: "tool_call", id: "toolu_1", name: long, arguments: '{"a":1}', kind: "function" },
    {
      type: "tool_call",
      id: "toolu_2",
      name: "apply_patch",
      arguments: "*** Begin Patch",
      kind: "custom",
    },
  ]);
  assert.equal(value.stopReason, "tool_use");
});

Deno.test("decodeResponse warns about an unknown stop reason", () => {
  const { value, warnings } = decodeResponse(
    message([], { stop_reason: "new_reason" }),
    coreRequest(),
    "anthropic",
  );
  assert.equal(value.stopReason, "end_turn");
  assert.deepEqual(warnings.map((w) => w.field), ["stop_reason"]);
});

Deno.test("decodeResponse rejects a body that is not a message with a 502", () => {
  assert.throws(() => decodeResponse({ hello: 1 }, coreRequest(), "anthropic"), (err: unknown) => {
    assert.ok(err instanceof GatewayError);
    assert.equal(err.status, 502);
    assert.match(err.message, /anthropic.*not an Anthropic message/);
    return true;
  });
});

Deno.test("decodeResponse reads a refusal's stop_details and names the dropped recommended model", () => {
  const { value, warnings } = decodeResponse(
    message([], {
      stop_reason: "refusal",
      stop_details: {
        type: "refusal",
        category: "cyber",
        explanation: "Blocked.",
        recommended_model: "claude-other",
      },
    }),
    coreRequest(),
    "anthropic",
  );
  assert.equal(value.stopReason, "refusal");
  assert.deepEqual(value.stopDetails, { category: "cyber", explanation: "Blocked." });
  assert.deepEqual(warnings.map((w) => w.field), ["stop_details.recommended_model"]);
  const plain = decodeResponse(message([], { stop_details: null }), coreRequest(), "anthropic");
  assert.equal(plain.value.stopDetails, undefined);
  assert.deepEqual(plain.warnings, []);
});
