/**
 * The output items of a Responses stream being encoded: the state of each open one, and the
 * events that complete it (a text part, a reasoning item, a call item). A refusal, known only
 * at the end, is written as a whole content part at once. Used by `encodeStreamStep`, which
 * numbers the events and keeps the output array.
 * @module
 */
import type { VendorToken } from "../../core/content.ts";
import { callItem, callPayload, type CallShape } from "./call_items.ts";
import { reasoningItem } from "./encode_response.ts";
import type { ResponsesEventType } from "./event_types.ts";
import type { WireMessageItem, WireOutputItem } from "./wire.ts";

/** Writes one event; the writer numbers it. */
export type Emit = (type: ResponsesEventType, fields: Record<string, unknown>) => void;

/** A core block being streamed: a text part of a message item, or a reasoning or call item. */
export type Block =
  | { kind: "text"; outputIndex: number; message: WireMessageItem; contentIndex: number }
  | {
    kind: "reasoning";
    outputIndex: number;
    id: string;
    text: string;
    partOpen: boolean;
    token?: VendorToken;
  }
  | {
    kind: "call";
    outputIndex: number;
    id: string;
    callId: string;
    shape: CallShape;
    args: string;
  };

type TextBlock = Extract<Block, { kind: "text" }>;

/** The fields that name a text part in its events. */
export function textIds(
  b: TextBlock,
): { item_id: string; output_index: number; content_index: number } {
  return { item_id: b.message.id, output_index: b.outputIndex, content_index: b.contentIndex };
}

/** Completes a text part: its text done and content part done events. */
export function endText(emit: Emit, b: TextBlock): void {
  const content = b.message.content[b.contentIndex];
  const text = content?.type === "output_text" ? content.text : "";
  emit("response.output_text.done", { ...textIds(b), text, logprobs: [] });
  emit("response.content_part.done", {
    ...textIds(b),
    part: { type: "output_text", text, annotations: [] },
  });
}

/** Completes a reasoning item: its summary part (when one opened), then the item, which
 * replaces the in-progress one in `output`. */
export function endReasoning(
  emit: Emit,
  output: WireOutputItem[],
  b: Extract<Block, { kind: "reasoning" }>,
  redacted: boolean,
  includeEncrypted: boolean,
): void {
  const ids = { item_id: b.id, output_index: b.outputIndex, summary_index: 0 };
  if (b.partOpen) {
    emit("response.reasoning_summary_text.done", { ...ids, text: b.text });
    emit("response.reasoning_summary_part.done", {
      ...ids,
      part: { type: "summary_text", text: b.text },
    });
  }
  const item = reasoningItem({ text: b.text, token: b.token, redacted }, b.id, includeEncrypted);
  output[b.outputIndex] = item;
  emit("response.output_item.done", { output_index: b.outputIndex, item });
}

/** Completes a call item: its arguments or input done (a custom tool call that was not
 * streamed gets its input as one delta first), then the item, which replaces the in-progress
 * one in `output`. */
export function endCall(
  emit: Emit,
  output: WireOutputItem[],
  b: Extract<Block, { kind: "call" }>,
): void {
  const payload = callPayload(b.shape, b.args);
  const ids = { item_id: b.id, output_index: b.outputIndex };
  if (b.shape.type === "function_call") {
    emit("response.function_call_arguments.done", { ...ids, arguments: payload });
  } else if (b.shape.type === "custom_tool_call") {
    if (!b.shape.streamable && payload) {
      emit("response.custom_tool_call_input.delta", { ...ids, delta: payload });
    }
    emit("response.custom_tool_call_input.done", { ...ids, input: payload });
  }
  const item = callItem(b.shape, { id: b.id, callId: b.callId }, payload, "completed");
  output[b.outputIndex] = item;
  emit("response.output_item.done", { output_index: b.outputIndex, item });
}

/** A refusal's explanation → a whole refusal part, appended to `message`. */
export function writeRefusal(
  emit: Emit,
  message: { item: WireMessageItem; outputIndex: number },
  refusal: string,
): void {
  const { item, outputIndex } = message;
  const ids = { item_id: item.id, output_index: outputIndex, content_index: item.content.length };
  item.content.push({ type: "refusal", refusal });
  emit("response.content_part.added", { ...ids, part: { type: "refusal", refusal: "" } });
  emit("response.refusal.delta", { ...ids, delta: refusal });
  emit("response.refusal.done", { ...ids, refusal });
  emit("response.content_part.done", { ...ids, part: { type: "refusal", refusal } });
}
