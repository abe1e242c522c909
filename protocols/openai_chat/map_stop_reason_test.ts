import assert from "node:assert/strict";
import type { StopReason } from "../../core/response.ts";
import { fromFinishReason, toFinishReason } from "./map_stop_reason.ts";

const plain = { refused: false, hasToolCalls: false };

Deno.test("toFinishReason maps every core stop reason", () => {
  const expected: Record<StopReason, string> = {
    end_turn: "stop",
    stop_sequence: "stop",
    pause_turn: "stop",
    max_tokens: "length",
    context_window_exceeded: "length",
    tool_use: "tool_calls",
    refusal: "content_filter",
    content_filter: "content_filter",
  };
  for (const [reason, finish] of Object.entries(expected)) {
    assert.equal(toFinishReason(reason as StopReason), finish, reason);
  }
});

Deno.test("fromFinishReason maps every chat finish_reason", () => {
  assert.equal(fromFinishReason({ ...plain, finishReason: "stop" }), "end_turn");
  assert.equal(fromFinishReason({ ...plain, finishReason: "length" }), "max_tokens");
  assert.equal(fromFinishReason({ ...plain, finishReason: "tool_calls" }), "tool_use");
  assert.equal(fromFinishReason({ ...plain, finishReason: "function_call" }), "tool_use");
  assert.equal(fromFinishReason({ ...plain, finishReason: "content_filter" }), "content_filter");
});

Deno.test("fromFinishReason reads refusals, tool turns ending in stop, and unknown values", () => {
  assert.equal(fromFinishReason({ ...plain, finishReason: "stop", refused: true }), "refusal");
  assert.equal(
    fromFinishReason({ ...plain, finishReason: "stop", hasToolCalls: true }),
    "tool_use",
  );
  assert.equal(
    fromFinishReason({ ...plain, finishReason: "length", hasToolCalls: true }),
    "max_tokens",
  );
  assert.equal(fromFinishReason({ ...plain, finishReason: "eos" }), "end_turn");
  assert.equal(fromFinishReason({ ...plain, finishReason: null }), "end_turn");
});
