/**
 * The output items of one upstream Responses stream and the core blocks they open: text per
 * message `output_text` part, one reasoning block per reasoning item, one call per call item
 * (or, for the `parallel` wrapper, one per wrapped call at its end). `refusal` parts open no
 * block: their text is kept for the finish part's stop details. Used by `decodeStream`.
 * @module
 */
import type { CoreRequest } from "../../core/request.ts";
import type { StreamPart } from "../../core/stream.ts";
import { callOfItem, type RawItem, reasoningTextOf } from "./decode_response.ts";
import { expandParallelWrapper, isParallelWrapper } from "./parallel_wrapper.ts";

type Text = { index: number; text: string; open: boolean };
type Reasoning = {
  kind: "reasoning";
  itemId?: string;
  index?: number;
  text: string;
  summaries: number;
  ended?: boolean;
};
type Call = {
  kind: "call";
  index?: number;
  id: string;
  name: string;
  args: string;
  wrapper: boolean;
  ended?: boolean;
};
type Item = { kind: "message"; parts: Map<number, Text> } | Reasoning | Call | { kind: "other" };

const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** What `full` has beyond `sent` (done events repeat the whole text). */
export const rest = (sent: string, full: string) =>
  full.startsWith(sent) ? full.slice(sent.length) : "";

/** Tracks items by `output_index` and emits the core parts for their events. */
export function streamItems(
  request: CoreRequest,
  restore: (name: string) => string,
  emit: (part: StreamPart) => void,
) {
  const items = new Map<number, Item>();
  let next = 0;
  const seen = { toolCall: false, refusal: false };

  /** Refusal texts by `outputIndex:contentIndex`. */
  const refusals = new Map<string, string>();
  const refusalDelta = (outputIndex: number, contentIndex: number, delta: string) => {
    seen.refusal = true;
    const key = `${outputIndex}:${contentIndex}`;
    refusals.set(key, (refusals.get(key) ?? "") + delta);
  };
  /** A done event repeats the whole refusal; an empty one keeps what the deltas said. */
  const refusalDone = (outputIndex: number, contentIndex: number, full: string) => {
    refusalDelta(outputIndex, contentIndex, "");
    if (full) refusals.set(`${outputIndex}:${contentIndex}`, full);
  };
  /** Every refusal of the stream, joined by blank lines ("" when there was none). */
  const refusal = () => [...refusals.values()].filter((text) => text !== "").join("\n\n");

  const textPart = (item: Item | undefined, contentIndex: number): Text | null => {
    if (item?.kind !== "message") return null;
    let part = item.parts.get(contentIndex);
    if (!part) {
      part = { index: next++, text: "", open: true };
      item.parts.set(contentIndex, part);
      emit({ type: "text_start", index: part.index });
    }
    return part;
  };
  const textDelta = (part: Text | null, delta: string) => {
    if (!part?.open || !delta) return;
    part.text += delta;
    emit({ type: "text_delta", index: part.index, text: delta });
  };
  const textEnd = (part: Text | null, full?: string) => {
    if (!part?.open) return;
    if (full !== undefined) textDelta(part, rest(part.text, full));
    part.open = false;
    emit({ type: "text_end", index: part.index });
  };

  const reasoningStart = (r: Reasoning, summary: boolean) => {
    if (r.index !== undefined) return r.index;
    r.index = next++;
    emit({
      type: "reasoning_start",
      index: r.index,
      summary,
      ...(r.itemId ? { itemId: r.itemId } : {}),
    });
    return r.index;
  };
  const reasoningDelta = (r: Reasoning, delta: string) => {
    if (!delta) return;
    r.text += delta;
    emit({ type: "reasoning_delta", index: reasoningStart(r, true), text: delta });
  };

  const callStart = (
    c: Call,
    kind: "function" | "custom" | "local_shell",
    itemId?: string,
  ) => {
    if (c.wrapper || c.index !== undefined) return;
    c.index = next++;
    seen.toolCall = true;
    emit({
      type: "tool_call_start",
      index: c.index,
      id: c.id,
      name: c.name,
      kind,
      ...(itemId ? { itemId } : {}),
    });
  };
  const callDelta = (c: Item | undefined, delta: string) => {
    if (c?.kind !== "call" || !delta) return;
    c.args += delta;
    if (c.index !== undefined) emit({ type: "tool_call_delta", index: c.index, delta });
  };

  const itemAdded = (outputIndex: number, raw: RawItem) => {
    if (raw.type === "message") {
      return items.set(outputIndex, { kind: "message", parts: new Map() });
    }
    if (raw.type === "reasoning") {
      const itemId = str(raw.id) || undefined;
      return items.set(outputIndex, { kind: "reasoning", itemId, text: "", summaries: 0 });
    }
    const call = callOfItem(raw, restore);
    if (!call) return items.set(outputIndex, { kind: "other" });
    const wrapper = call.kind === "function" && isParallelWrapper(call.name, request);
    const c: Call = { kind: "call", id: call.id, name: call.name, args: "", wrapper };
    items.set(outputIndex, c);
    callStart(c, call.kind, call.itemId);
    if (call.kind !== "local_shell") callDelta(c, call.arguments);
  };

  const itemDone = (outputIndex: number, raw: RawItem) => {
    if (!items.has(outputIndex)) itemAdded(outputIndex, { ...raw, arguments: "", input: "" });
    const item = items.get(outputIndex);
    if (item?.kind === "message") {
      const content = (Array.isArray(raw.content) ? raw.content : []) as RawItem[];
      content.forEach((c, i) => {
        if (c.type === "refusal") return refusalDone(outputIndex, i, str(c.refusal));
        const full = str(c.text);
        if (!item.parts.has(i) && !full) return;
        textEnd(textPart(item, i), full);
      });
      for (const part of item.parts.values()) textEnd(part);
    } else if (item?.kind === "reasoning" && !item.ended) {
      const { text, summary } = reasoningTextOf(raw);
      const encrypted = str(raw.encrypted_content);
      if (item.index === undefined && !text && !encrypted) return;
      const index = reasoningStart(item, summary);
      reasoningDelta(item, rest(item.text, text));
      if (encrypted) {
        emit({ type: "reasoning_token", index, token: { vendor: "openai", value: encrypted } });
      }
      reasoningEnd(item);
    } else if (item?.kind === "call" && !item.ended) {
      const call = callOfItem(raw, restore);
      const full = call?.arguments ?? item.args;
      if (item.wrapper) {
        item.ended = true;
        return expandWrapper(item, full);
      }
      callDelta(item, item.args === "" ? full : rest(item.args, full));
      callEnd(item);
    }
  };
  const reasoningEnd = (r: Reasoning) => {
    if (r.index === undefined || r.ended) return;
    r.ended = true;
    emit({ type: "reasoning_end", index: r.index });
  };
  const callEnd = (c: Call) => {
    if (c.index === undefined || c.ended) return;
    c.ended = true;
    emit({ type: "tool_call_end", index: c.index });
  };

  /** The wrapped calls get no item id: the wrapper's id is not theirs, and two items with one
   * id would be rejected when replayed to OpenAI. */
  const expandWrapper = (c: Call, args: string) => {
    const calls = expandParallelWrapper(c.id, args) ??
      [{ id: c.id, name: c.name, arguments: args }];
    for (const call of calls) {
      const index = next++;
      seen.toolCall = true;
      emit({
        type: "tool_call_start",
        index,
        id: call.id,
        name: restore(call.name),
        kind: "function",
      });
      if (call.arguments) emit({ type: "tool_call_delta", index, delta: call.arguments });
      emit({ type: "tool_call_end", index });
    }
  };

  /** Ends every block still open (an upstream that finished without all its done events). */
  const closeAll = () => {
    for (const item of items.values()) {
      if (item.kind === "message") { for (const part of item.parts.values()) textEnd(part); }
      else if (item.kind === "reasoning") reasoningEnd(item);
      else if (item.kind === "call") callEnd(item);
    }
  };

  return {
    seen,
    get: (outputIndex: number) => items.get(outputIndex),
    added: itemAdded,
    done: itemDone,
    textPart,
    textDelta,
    textEnd,
    refusalDelta,
    refusalDone,
    refusal,
    reasoningStart,
    reasoningDelta,
    callDelta,
    closeAll,
  };
}
