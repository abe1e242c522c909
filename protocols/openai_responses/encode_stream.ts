/**
 * Core stream parts → a Responses event stream as OpenAI sends it: `response.created`,
 * `response.in_progress`, then per output item `response.output_item.added`, its own events
 * (content parts and text deltas for messages, summary parts and deltas for reasoning, argument
 * or input deltas for calls) and `response.output_item.done`; exactly one terminal event
 * (`response.completed`, `response.incomplete`, or `response.failed` after an error or an early
 * end). `sequence_number` counts from 0. Consecutive text blocks share one message item. A
 * refusal's explanation arrives with the finish part and is written then, as a `refusal`
 * content part (`response.refusal.delta` / `.done`) of the open or a new message item.
 * Reasoning text is written as a summary (Codex shows summaries, and replays them with the
 * encrypted content, which is what lets a Claude thinking block continue across turns).
 * @module
 */
import { chainSteps, type Sink, type Step, stepStream } from "../../core/step.ts";
import { assertNever, type StreamPart } from "../../core/stream.ts";
import { sseTyped, utf8Step } from "../../sse/encode_sse.ts";
import type { EncodeContext } from "../codec.ts";
import { callItem, callShaper } from "./call_items.ts";
import { CALL_PREFIX } from "./encode_response.ts";
import {
  type Block,
  type Emit,
  endCall,
  endReasoning,
  endText,
  textIds,
  writeRefusal,
} from "./encode_stream_items.ts";
import { responsesErrorOf } from "./error_codes.ts";
import { itemIdAllocator, responseIdFor } from "./ids.ts";
import { endingOf } from "./map_stop_reason.ts";
import { usageToResponses } from "./map_usage.ts";
import { responseObject, type ResponseState } from "./response_object.ts";
import type { ResponsesEventType } from "./event_types.ts";
import type { WireMessageItem, WireOutputItem } from "./wire.ts";

/** Encodes one response's stream parts as SSE text. */
export function encodeStreamStep(ctx: EncodeContext): Step<StreamPart, string> {
  const shape = callShaper(ctx.request);
  const includeEncrypted = ctx.request.reasoning?.includeEncrypted === true;
  const output: WireOutputItem[] = [];
  const blocks = new Map<number, Block>();
  let out!: Sink<string>;
  let state: ResponseState | null = null;
  let nextId = itemIdAllocator("resp_pending");
  let sequence = 0;
  let openMessage: { item: WireMessageItem; outputIndex: number } | null = null;
  let ended = false;

  // Each event is serialised as it is emitted, so the items it shows may change afterwards
  // (a message item gains content and is completed) without a copy.
  const emit: Emit = (type, fields) => {
    const event = { type, sequence_number: sequence++, ...fields };
    out.enqueue(sseTyped(event));
  };

  const begin = (id: string, created: number): ResponseState => {
    const s: ResponseState = {
      id: responseIdFor(id),
      createdAt: created,
      status: "in_progress",
      output: [],
      usage: null,
    };
    state = s;
    nextId = itemIdAllocator(s.id);
    const initial = responseObject(ctx, s);
    emit("response.created", { response: initial });
    emit("response.in_progress", { response: initial });
    return s;
  };
  const current = (): ResponseState => state ?? begin("", Math.floor(Date.now() / 1000));

  const addItem = (item: WireOutputItem): number => {
    output.push(item);
    emit("response.output_item.added", {
      output_index: output.length - 1,
      item,
    });
    return output.length - 1;
  };
  const closeMessage = () => {
    if (!openMessage) return;
    openMessage.item.status = "completed";
    emit("response.output_item.done", {
      output_index: openMessage.outputIndex,
      item: openMessage.item,
    });
    openMessage = null;
  };
  const finishOpenBlocks = () => {
    closeMessage();
    for (const b of blocks.values()) {
      if (b.kind === "reasoning") endReasoning(emit, output, b, false, includeEncrypted);
      else if (b.kind === "call") endCall(emit, output, b);
    }
    blocks.clear();
  };
  const fail = (error: { code: string; message: string }) => {
    const s = current();
    ended = true;
    emit("response.failed", {
      response: responseObject(ctx, { ...s, status: "failed", output, error }),
    });
  };

  const messageItem = (): { item: WireMessageItem; outputIndex: number } => {
    if (openMessage) return openMessage;
    const item: WireMessageItem = {
      type: "message",
      id: nextId("msg"),
      role: "assistant",
      status: "in_progress",
      content: [],
    };
    openMessage = { item, outputIndex: addItem(item) };
    return openMessage;
  };
  const textStart = (index: number) => {
    const { item, outputIndex } = messageItem();
    const contentIndex = item.content.length;
    item.content.push({ type: "output_text", text: "", annotations: [] });
    blocks.set(index, { kind: "text", outputIndex, message: item, contentIndex });
    emit("response.content_part.added", {
      item_id: item.id,
      output_index: outputIndex,
      content_index: contentIndex,
      part: { type: "output_text", text: "", annotations: [] },
    });
  };

  const handle = (part: StreamPart) => {
    if (part.type === "start") {
      if (!state) begin(part.id, part.created);
      return;
    }
    current();
    const b = "index" in part ? blocks.get(part.index) : undefined;
    switch (part.type) {
      case "text_start":
        return textStart(part.index);
      case "text_delta": {
        if (b?.kind !== "text") return;
        const content = b.message.content[b.contentIndex];
        if (content?.type === "output_text") content.text += part.text;
        emit("response.output_text.delta", { ...textIds(b), delta: part.text, logprobs: [] });
        return;
      }
      case "text_end":
        if (b?.kind !== "text") return;
        blocks.delete(part.index);
        return endText(emit, b);
      case "reasoning_start": {
        closeMessage();
        const id = nextId("rs", part.itemId);
        const outputIndex = addItem({ type: "reasoning", id, summary: [] });
        blocks.set(part.index, { kind: "reasoning", outputIndex, id, text: "", partOpen: false });
        return;
      }
      case "reasoning_delta": {
        if (b?.kind !== "reasoning" || part.text === "") return;
        const ids = { item_id: b.id, output_index: b.outputIndex, summary_index: 0 };
        if (!b.partOpen) {
          b.partOpen = true;
          emit("response.reasoning_summary_part.added", {
            ...ids,
            part: { type: "summary_text", text: "" },
          });
        }
        b.text += part.text;
        emit("response.reasoning_summary_text.delta", { ...ids, delta: part.text });
        return;
      }
      case "reasoning_token":
        if (b?.kind === "reasoning") b.token = part.token;
        return;
      case "reasoning_end":
        if (b?.kind !== "reasoning") return;
        blocks.delete(part.index);
        return endReasoning(emit, output, b, part.redacted === true, includeEncrypted);
      case "tool_call_start": {
        closeMessage();
        const s = shape(part.name, part.kind);
        const id = nextId(CALL_PREFIX[s.type] ?? "fc", part.itemId);
        const outputIndex = addItem(callItem(s, { id, callId: part.id }, "", "in_progress"));
        blocks.set(part.index, {
          kind: "call",
          outputIndex,
          id,
          callId: part.id,
          shape: s,
          args: "",
        });
        return;
      }
      case "tool_call_delta": {
        if (b?.kind !== "call") return;
        b.args += part.delta;
        if (!b.shape.streamable || part.delta === "") return;
        const type: ResponsesEventType = b.shape.type === "function_call"
          ? "response.function_call_arguments.delta"
          : "response.custom_tool_call_input.delta";
        emit(type, { item_id: b.id, output_index: b.outputIndex, delta: part.delta });
        return;
      }
      case "tool_call_end":
        if (b?.kind !== "call") return;
        blocks.delete(part.index);
        return endCall(emit, output, b);
      case "finish": {
        if (part.stopDetails?.explanation) {
          writeRefusal(emit, messageItem(), part.stopDetails.explanation);
        }
        finishOpenBlocks();
        const ending = endingOf(part.stopReason);
        ended = true;
        const response = responseObject(ctx, {
          ...current(),
          status: ending.status,
          output,
          usage: usageToResponses(part.usage),
          ...(ending.reason ? { incompleteReason: ending.reason } : {}),
        });
        const type = ending.status === "completed" ? "response.completed" : "response.incomplete";
        return emit(type, { response });
      }
      case "error":
        return fail(responsesErrorOf(part.error));
      default:
        assertNever(part, "stream part");
    }
  };

  return {
    start(controller) {
      out = controller;
    },
    transform(part) {
      if (!ended) handle(part);
    },
    flush() {
      if (ended) return;
      fail({
        code: "server_error",
        message: "The upstream stream ended before the response was complete; retry the request.",
      });
    },
  };
}

/** The step as a `TransformStream`. */
export function encodeStream(ctx: EncodeContext): TransformStream<StreamPart, Uint8Array> {
  return stepStream(chainSteps(encodeStreamStep(ctx), utf8Step()));
}
