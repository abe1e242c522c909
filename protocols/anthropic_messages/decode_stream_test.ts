import assert from "node:assert/strict";
import type { StreamPart } from "../../core/stream.ts";
import { coreRequest, decodeEvents, events } from "./testing.ts";

const start = {
  type: "message_start",
  message: {
    id: "msg_1",
    model: "claude-x",
    usage: {
      input_tokens: 10,
      cache_read_input_tokens: 90,
      cache_creation_input_tokens: 0,
      output_tokens: 1,
    },
  },
};
const end = [
  {
    type: "message_delta",
    delta: { stop_reason: "end_turn", stop_sequence: null },
    usage: { output_tokens: 9 },
  },
  { type: "message_stop" },
];

/** Parts without the start/finish frame. */
const body = (parts: StreamPart[]) =>
  parts.filter((p) => p.type !== "start" && p.type !== "finish");

Deno.test("decodeStream reports input tokens including the cache in start and finish", async () => {
  const parts = await decodeEvents(events(start, ...end));
  assert.deepEqual(parts[0], {
    type: "start",
    id: "msg_1",
    model: "claude-x",
    created: (parts[0] as { created: number }).created,
    usage: { inputTokens: 100, cacheReadTokens: 90, cacheWriteTokens: 0, outputTokens: 1 },
  });
  assert.deepEqual(parts[1], {
    type: "finish",
    stopReason: "end_turn",
    usage: {
      inputTokens: 100,
      outputTokens: 9,
      cacheReadTokens: 90,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    },
  });
});

Deno.test("decodeStream turns redacted thinking into start, token and a redacted end", async () => {
  const parts = await decodeEvents(events(
    start,
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "redacted_thinking", data: "opaque" },
    },
    { type: "content_block_stop", index: 0 },
    ...end,
  ));
  assert.deepEqual(body(parts), [
    { type: "reasoning_start", index: 0 },
    { type: "reasoning_token", index: 0, token: { vendor: "anthropic", value: "opaque" } },
    { type: "reasoning_end", index: 0, redacted: true },
  ]);
});

Deno.test("decodeStream skips server tool blocks and numbers the rest contiguously", async () => {
  const parts = await decodeEvents(events(
    start,
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
    },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: '{"query":"q"}' },
    },
    { type: "content_block_stop", index: 0 },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
    },
    { type: "content_block_stop", index: 1 },
    { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "found" } },
    { type: "content_block_delta", index: 2, delta: { type: "citations_delta", citation: {} } },
    { type: "content_block_stop", index: 2 },
    ...end,
  ));
  assert.deepEqual(body(parts), [
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "found" },
    { type: "text_end", index: 0 },
  ]);
});

Deno.test("decodeStream buffers and unwraps a custom tool's input, restoring its name", async () => {
  const request = coreRequest({ tools: [{ type: "custom", name: "apply_patch" }] });
  const parts = await decodeEvents(
    events(
      start,
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_1", name: "apply_patch", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"input": "*** Be' },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: 'gin Patch"}' },
      },
      { type: "content_block_stop", index: 0 },
      ...end,
    ),
    request,
  );
  assert.deepEqual(body(parts), [
    { type: "tool_call_start", index: 0, id: "toolu_1", name: "apply_patch", kind: "custom" },
    { type: "tool_call_delta", index: 0, delta: "*** Begin Patch" },
    { type: "tool_call_end", index: 0 },
  ]);
});

Deno.test("decodeStream emits a tool's input given whole in its start block", async () => {
  const parts = await decodeEvents(events(
    start,
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id: "t", name: "f", input: { a: 1 } },
    },
    { type: "content_block_stop", index: 0 },
    ...end,
  ));
  assert.deepEqual(body(parts)[1], { type: "tool_call_delta", index: 0, delta: '{"a":1}' });
});

Deno.test("decodeStream turns an error event into an error part and stops", async () => {
  const parts = await decodeEvents(events(
    start,
    { type: "ping" },
    { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    ...end,
  ));
  assert.deepEqual(parts.map((p) => p.type), ["start", "error"]);
  const error = (parts[1] as Extract<StreamPart, { type: "error" }>).error;
  assert.equal(error.kind, "overloaded");
  assert.equal(error.status, 529);
  assert.match(error.message, /anthropic.*Overloaded/);
});

Deno.test("decodeStream reports a stream that ends before message_stop", async () => {
  const parts = await decodeEvents(events(
    start,
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "cut" } },
  ));
  const last = parts.at(-1) as Extract<StreamPart, { type: "error" }>;
  assert.equal(last.type, "error");
  assert.equal(last.error.status, 502);
  assert.match(last.error.message, /before message_stop/);
});

Deno.test("decodeStream reports an event that is not JSON", async () => {
  const parts = await decodeEvents([{ event: "message_start", data: "{oops" }]);
  assert.deepEqual(parts.map((p) => p.type), ["error"]);
});

Deno.test("decodeStream closes blocks left open at message_stop", async () => {
  const parts = await decodeEvents(events(
    start,
    {
      type: "content_block_start",
      index: 0,
      content_block: { type: "thinking", thinking: "", signature: "" },
    },
    { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hm" } },
    { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
    ...end,
  ));
  assert.deepEqual(parts.slice(1).map((p) => p.type), [
    "reasoning_start",
    "reasoning_delta",
    "reasoning_token",
    "reasoning_end",
    "finish",
  ]);
});

Deno.test("decodeStream puts message_delta stop_details on the finish part", async () => {
  const parts = await decodeEvents(events(start, {
    type: "message_delta",
    delta: {
      stop_reason: "refusal",
      stop_sequence: null,
      stop_details: { type: "refusal", category: null, explanation: "Blocked." },
    },
    usage: { output_tokens: 2 },
  }, { type: "message_stop" }));
  const finish = parts.at(-1) as Extract<StreamPart, { type: "finish" }>;
  assert.equal(finish.stopReason, "refusal");
  assert.deepEqual(finish.stopDetails, { explanation: "Blocked." });
  const plain = await decodeEvents(events(start, ...end));
  assert.equal("stopDetails" in plain.at(-1)!, false);
});
