import assert from "node:assert/strict";
import type { CallShape } from "./call_items.ts";
import {
  type Block,
  type Emit,
  endCall,
  endReasoning,
  endText,
  textIds,
  writeRefusal,
} from "./encode_stream_items.ts";
import type { WireMessageItem, WireOutputItem } from "./wire.ts";

/** An emitter that keeps each event's type and fields. */
const recorder = () => {
  const events: Record<string, unknown>[] = [];
  const emit: Emit = (type, fields) => void events.push({ type, ...fields });
  return { events, emit };
};
const message = (): WireMessageItem => ({
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "in_progress",
  content: [],
});
const shape = (fields: Partial<CallShape>): CallShape => ({
  type: "function_call",
  name: "f",
  unwrap: false,
  streamable: true,
  ...fields,
});

Deno.test("endText writes the part's text done and content part done", () => {
  const { events, emit } = recorder();
  const item = message();
  item.content.push({ type: "output_text", text: "Hello", annotations: [] });
  const b: Block = { kind: "text", outputIndex: 2, message: item, contentIndex: 0 };
  assert.deepEqual(textIds(b), { item_id: "msg_1", output_index: 2, content_index: 0 });
  endText(emit, b);
  const ids = { item_id: "msg_1", output_index: 2, content_index: 0 };
  assert.deepEqual(events, [
    { type: "response.output_text.done", ...ids, text: "Hello", logprobs: [] },
    {
      type: "response.content_part.done",
      ...ids,
      part: { type: "output_text", text: "Hello", annotations: [] },
    },
  ]);
});

Deno.test("endReasoning closes an open summary part and replaces the item in the output", () => {
  const { events, emit } = recorder();
  const output: WireOutputItem[] = [{ type: "reasoning", id: "rs_1", summary: [] }];
  const b: Block = { kind: "reasoning", outputIndex: 0, id: "rs_1", text: "Hm", partOpen: true };
  endReasoning(emit, output, b, false, false);
  const item = { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Hm" }] };
  const ids = { item_id: "rs_1", output_index: 0, summary_index: 0 };
  assert.deepEqual(output, [item]);
  assert.deepEqual(events, [
    { type: "response.reasoning_summary_text.done", ...ids, text: "Hm" },
    {
      type: "response.reasoning_summary_part.done",
      ...ids,
      part: { type: "summary_text", text: "Hm" },
    },
    { type: "response.output_item.done", output_index: 0, item },
  ]);
});

Deno.test("endReasoning without a summary part writes only the item, encrypted when asked", () => {
  const { events, emit } = recorder();
  const output: WireOutputItem[] = [];
  const token = { vendor: "anthropic", value: "sig" } as const;
  const b: Block = { kind: "reasoning", outputIndex: 0, id: "rs_1", text: "", partOpen: false };
  endReasoning(emit, output, { ...b, token }, false, true);
  assert.deepEqual(events.map((e) => e.type), ["response.output_item.done"]);
  assert.equal(typeof (output[0] as { encrypted_content?: unknown }).encrypted_content, "string");
  endReasoning(emit, output, { ...b, token }, false, false);
  assert.equal("encrypted_content" in output[0]!, false);
});

Deno.test("endCall writes a function call's arguments done and the completed item", () => {
  const { events, emit } = recorder();
  const output: WireOutputItem[] = [];
  const b: Block = {
    kind: "call",
    outputIndex: 1,
    id: "fc_1",
    callId: "call_1",
    shape: shape({}),
    args: '{"a":1}',
  };
  endCall(emit, output, b);
  const item = {
    type: "function_call",
    id: "fc_1",
    call_id: "call_1",
    name: "f",
    arguments: '{"a":1}',
    status: "completed",
  };
  assert.deepEqual(output[1], item);
  assert.deepEqual(events, [
    {
      type: "response.function_call_arguments.done",
      item_id: "fc_1",
      output_index: 1,
      arguments: '{"a":1}',
    },
    { type: "response.output_item.done", output_index: 1, item },
  ]);
});

Deno.test("endCall gives an unstreamed custom call its unwrapped input as one delta", () => {
  const { events, emit } = recorder();
  const b: Block = {
    kind: "call",
    outputIndex: 0,
    id: "ctc_1",
    callId: "call_1",
    shape: shape({
      type: "custom_tool_call",
      name: "apply_patch",
      unwrap: true,
      streamable: false,
    }),
    args: '{"input":"*** Begin"}',
  };
  endCall(emit, [], b);
  const ids = { item_id: "ctc_1", output_index: 0 };
  assert.deepEqual(events.slice(0, 2), [
    { type: "response.custom_tool_call_input.delta", ...ids, delta: "*** Begin" },
    { type: "response.custom_tool_call_input.done", ...ids, input: "*** Begin" },
  ]);
  assert.equal(events[2]!.type, "response.output_item.done");
});

Deno.test("writeRefusal appends a whole refusal part to the message", () => {
  const { events, emit } = recorder();
  const item = message();
  item.content.push({ type: "output_text", text: "", annotations: [] });
  writeRefusal(emit, { item, outputIndex: 0 }, "No.");
  const ids = { item_id: "msg_1", output_index: 0, content_index: 1 };
  assert.deepEqual(item.content[1], { type: "refusal", refusal: "No." });
  assert.deepEqual(events, [
    { type: "response.content_part.added", ...ids, part: { type: "refusal", refusal: "" } },
    { type: "response.refusal.delta", ...ids, delta: "No." },
    { type: "response.refusal.done", ...ids, refusal: "No." },
    { type: "response.content_part.done", ...ids, part: { type: "refusal", refusal: "No." } },
  ]);
});
