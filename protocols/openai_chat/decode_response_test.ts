import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { shortenToolName } from "../tool_names.ts";
import { decodeResponse } from "./decode_response.ts";
import { coreRequest } from "./test_support.ts";

const body = (message: Record<string, unknown>, finish = "stop", extra = {}) => ({
  id: "chatcmpl-7",
  object: "chat.completion",
  created: 42,
  model: "up-model",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
  usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  ...extra,
});

Deno.test("decodeResponse reads reasoning, text and tool calls in that order", () => {
  const long = "x".repeat(90);
  const request = coreRequest({
    tools: [
      { type: "function", name: long, parameters: {} },
      { type: "custom", name: "apply_patch" },
    ],
  });
  const { value, warnings } = decodeResponse(
    body({
      content: "Sure.",
      reasoning_content: "plan",
      tool_calls: [
        { id: "a", type: "function", function: { name: shortenToolName(long), arguments: "{}" } },
        {
          id: "b",
          type: "function",
          function: { name: "apply_patch", arguments: '{"input":"raw"}' },
        },
        { type: "function", function: { name: "other", arguments: "{}" } },
      ],
    }, "tool_calls"),
    request,
    "p",
  );
  assert.deepEqual(warnings, []);
  assert.deepEqual(value, {
    id: "chatcmpl-7",
    model: "up-model",
    content: [
      { type: "reasoning", text: "plan" },
      { type: "text", text: "Sure." },
      { type: "tool_call", id: "a", name: long, arguments: "{}", kind: "function" },
      { type: "tool_call", id: "b", name: "apply_patch", arguments: "raw", kind: "custom" },
      {
        type: "tool_call",
        id: "call_chatcmpl7_2",
        name: "other",
        arguments: "{}",
        kind: "function",
      },
    ],
    stopReason: "tool_use",
    usage: {
      inputTokens: 5,
      outputTokens: 3,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    },
    created: 42,
  });
});

Deno.test("decodeResponse reads a refusal and native custom tool calls", () => {
  const refusal = decodeResponse(body({ content: null, refusal: "No." }), coreRequest(), "p");
  assert.deepEqual(refusal.value.content, []);
  assert.equal(refusal.value.stopReason, "refusal");
  assert.deepEqual(refusal.value.stopDetails, { explanation: "No." });
  const custom = decodeResponse(
    body(
      { tool_calls: [{ id: "c", type: "custom", custom: { name: "g", input: "free" } }] },
      "tool_calls",
    ),
    coreRequest(),
    "p",
  );
  assert.deepEqual(custom.value.content, [
    { type: "tool_call", id: "c", name: "g", arguments: "free", kind: "custom" },
  ]);
});

Deno.test("decodeResponse keeps the first of several choices with a warning", () => {
  const two = body({ content: "a" });
  const second = { index: 1, message: { role: "assistant", content: "b" }, finish_reason: "stop" };
  (two.choices as unknown[]).push(second);
  const { value, warnings } = decodeResponse(two, coreRequest(), "p");
  assert.deepEqual(value.content, [{ type: "text", text: "a" }]);
  assert.deepEqual(warnings.map((w) => w.field), ["choices"]);
});

Deno.test("decodeResponse rejects a body that is not a completion with a 502", () => {
  assert.throws(() => decodeResponse({ choices: [] }, coreRequest(), "vllm"), (e: GatewayError) => {
    assert.equal(e.status, 502);
    assert.match(e.message, /vllm/);
    return true;
  });
  assert.throws(() => decodeResponse("oops", coreRequest(), "p"), GatewayError);
});
