import assert from "node:assert/strict";
import type { StopReason } from "../../core/response.ts";
import { endingOf, stopReasonOf } from "./map_stop_reason.ts";

Deno.test("endingOf: every core stop reason", () => {
  const table: Record<StopReason, ReturnType<typeof endingOf>> = {
    end_turn: { status: "completed" },
    tool_use: { status: "completed" },
    refusal: { status: "completed" },
    stop_sequence: { status: "completed" },
    pause_turn: { status: "completed" },
    max_tokens: { status: "incomplete", reason: "max_output_tokens" },
    context_window_exceeded: { status: "incomplete", reason: "max_output_tokens" },
    content_filter: { status: "incomplete", reason: "content_filter" },
  };
  for (const [reason, ending] of Object.entries(table)) {
    assert.deepEqual(endingOf(reason as StopReason), ending, reason);
  }
});

Deno.test("stopReasonOf: every status and reason", () => {
  const none = { toolCall: false, refusal: false };
  assert.equal(stopReasonOf("completed", null, none), "end_turn");
  assert.equal(stopReasonOf("completed", null, { toolCall: true, refusal: true }), "tool_use");
  assert.equal(stopReasonOf("completed", null, { toolCall: false, refusal: true }), "refusal");
  assert.equal(stopReasonOf("incomplete", "max_output_tokens", none), "max_tokens");
  assert.equal(stopReasonOf("incomplete", "content_filter", none), "content_filter");
  assert.equal(stopReasonOf("incomplete", "max_messages", none), "max_tokens");
  assert.equal(stopReasonOf("incomplete", undefined, none), "max_tokens");
});
