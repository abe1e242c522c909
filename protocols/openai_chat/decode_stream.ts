/**
 * Upstream face: Chat Completions SSE events → core stream parts, one event at a time.
 *
 * Blocks get core indices in output order across kinds: reasoning (`reasoning_content` or
 * `reasoning`), text (`content`), then one block per tool call; `refusal` fragments are joined
 * into the `finish` part's stop details. Reasoning and text blocks close when another kind
 * starts; tool calls stay open until `finish_reason`, because chat may interleave the argument
 * fragments of parallel calls. The `finish` part waits for `[DONE]` (or the end of the stream
 * after a `finish_reason`): OpenAI sends the usage chunk after the `finish_reason` chunk.
 * @module
 */
import { type Sink, type Step, stepStream } from "../../core/step.ts";
import type { GatewayError } from "../../core/errors.ts";
import { type CoreRequest, withoutMessages } from "../../core/request.ts";
import { emptyUsage, type Usage } from "../../core/response.ts";
import type { StreamPart } from "../../core/stream.ts";
import type { SseEvent } from "../../sse/parse_sse.ts";
import { streamError, truncatedStream } from "./decode_error.ts";
import { fromFinishReason } from "./map_stop_reason.ts";
import { fromChatUsage } from "./map_usage.ts";
import {
  type ChatCompletionChunk,
  type ChatToolCallOut,
  contentText,
  reasoningText,
} from "./response_schemas.ts";
import { syntheticCallId, toolCallReader } from "./tool_calls_in.ts";
import { readChunk } from "./read_chunk.ts";

interface ToolState {
  /** The upstream's tool call index (or a stand-in when the server sends none). */
  key: number;
  id?: string;
  upstreamName?: string;
  /** Core block index once `tool_call_start` went out. */
  index?: number;
  kind: "function" | "custom";
  /** Arguments held back: before the name is known, and a custom call's whole wrapper (its raw
   * input is a JSON string field, unwrapped when the call ends). */
  pending: string;
  ended: boolean;
}

/** The `decodeStream` of the chat wire. */
export function decodeStreamStep(
  fullRequest: CoreRequest,
  provider: string,
): Step<SseEvent, StreamPart> {
  const reader = toolCallReader(fullRequest);
  // What the step keeps for the stream's life: the request without its prompt.
  const request = withoutMessages(fullRequest);
  let ctrl!: Sink<StreamPart>;
  let done = false;
  let responseId = "";
  let nextIndex = 0;
  let open: { kind: "reasoning" | "text"; index: number } | null = null;
  const tools = new Map<number, ToolState>();
  const keyOfId = new Map<string, number>();
  let lastKey = 0;
  let sawFinish = false;
  let finishReason: string | null | undefined;
  let refusal = "";
  let usage: Usage | null = null;

  const emit = (part: StreamPart) => ctrl.enqueue(part);
  const fail = (error: GatewayError) => {
    emit({ type: "error", error });
    done = true;
  };

  function start(chunk: ChatCompletionChunk) {
    responseId = chunk.id || `chatcmpl-${crypto.randomUUID()}`;
    emit({
      type: "start",
      id: responseId,
      model: chunk.model ?? request.model,
      created: chunk.created ?? Math.floor(Date.now() / 1000),
    });
  }

  function closeOpen() {
    if (!open) return;
    const index = open.index;
    emit(open.kind === "text" ? { type: "text_end", index } : { type: "reasoning_end", index });
    open = null;
  }

  function write(kind: "reasoning" | "text", text: string) {
    if (open?.kind !== kind) {
      closeOpen();
      const index = nextIndex++;
      open = { kind, index };
      emit(kind === "text" ? { type: "text_start", index } : { type: "reasoning_start", index });
    }
    const index = open.index;
    emit(
      kind === "text"
        ? { type: "text_delta", index, text }
        : { type: "reasoning_delta", index, text },
    );
  }

  function startTool(tool: ToolState) {
    if (tool.index !== undefined || tool.upstreamName === undefined) return;
    const name = reader.restore(tool.upstreamName);
    tool.kind = reader.kindOf(name);
    tool.index = nextIndex++;
    tool.id ??= syntheticCallId(responseId, tool.key);
    emit({ type: "tool_call_start", index: tool.index, id: tool.id, name, kind: tool.kind });
    if (tool.kind === "function" && tool.pending) {
      emit({ type: "tool_call_delta", index: tool.index, delta: tool.pending });
      tool.pending = "";
    }
  }

  function endTools() {
    for (const tool of tools.values()) {
      if (tool.ended) continue;
      tool.upstreamName ??= "";
      startTool(tool);
      const index = tool.index!;
      if (tool.kind === "custom") {
        const input = reader.unwrapCustom(tool.pending);
        if (input) emit({ type: "tool_call_delta", index, delta: input });
      }
      emit({ type: "tool_call_end", index });
      tool.ended = true;
    }
  }

  /** Which call a fragment belongs to: its `index`; servers that omit it are matched by id,
   * and a fragment with neither continues the previous call. */
  function keyOf(call: ChatToolCallOut): number {
    if (call.index != null) return call.index;
    if (!call.id) return lastKey;
    const known = keyOfId.get(call.id);
    if (known !== undefined) return known;
    const key = tools.size === 0 ? 0 : Math.max(...tools.keys()) + 1;
    keyOfId.set(call.id, key);
    return key;
  }

  function toolDelta(call: ChatToolCallOut) {
    const key = keyOf(call);
    lastKey = key;
    let tool = tools.get(key);
    if (!tool) {
      closeOpen();
      tool = { key, kind: "function", pending: "", ended: false };
      tools.set(key, tool);
    }
    if (tool.ended) return;
    if (tool.index === undefined) {
      if (call.id) tool.id = call.id;
      if (call.function?.name) tool.upstreamName = call.function.name;
      startTool(tool);
    }
    const fragment = call.function?.arguments;
    if (!fragment) return;
    if (tool.index !== undefined && tool.kind === "function") {
      emit({ type: "tool_call_delta", index: tool.index, delta: fragment });
    } else {
      tool.pending += fragment;
    }
  }

  function finish() {
    if (!responseId) start({});
    closeOpen();
    endTools();
    const stopReason = fromFinishReason({
      finishReason,
      refused: refusal !== "",
      hasToolCalls: tools.size > 0,
    });
    emit({
      type: "finish",
      stopReason,
      ...(refusal ? { stopDetails: { explanation: refusal } } : {}),
      usage: usage ?? emptyUsage(),
    });
    done = true;
  }

  function handle(event: SseEvent) {
    if (event.data.trim() === "[DONE]") return finish();
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      return fail(streamError(provider, `an event is not JSON: ${event.data.slice(0, 200)}`));
    }
    const chunk = readChunk(json);
    if (chunk === null) {
      return fail(streamError(provider, "an event is not a chat.completion.chunk"));
    }
    if (chunk.error != null) return fail(streamError(provider, chunk.error));
    if (!responseId) start(chunk);
    if (chunk.usage) usage = fromChatUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      // Only n=1 is translated: other choices cannot occur, and are skipped if they do.
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta;
      if (delta && !sawFinish) {
        const reasoning = reasoningText(delta);
        if (reasoning) write("reasoning", reasoning);
        const text = contentText(delta.content);
        if (text) write("text", text);
        if (delta.refusal) refusal += delta.refusal;
        for (const call of delta.tool_calls ?? []) toolDelta(call);
      }
      if (choice.finish_reason && !sawFinish) {
        sawFinish = true;
        finishReason = choice.finish_reason;
        closeOpen();
        endTools();
      }
    }
  }

  return {
    transform(event, controller) {
      ctrl = controller;
      if (!done) handle(event);
    },
    flush(controller) {
      ctrl = controller;
      if (done) return;
      // After a finish_reason the answer is complete even without [DONE].
      if (sawFinish) finish();
      else fail(truncatedStream(provider));
    },
  };
}

/** The step as a `TransformStream`. */
export function decodeStream(
  request: CoreRequest,
  provider: string,
): TransformStream<SseEvent, StreamPart> {
  return stepStream(decodeStreamStep(request, provider));
}
