/**
 * Client face: core stream parts → Chat Completions SSE (`data: {chunk}` lines, then
 * `data: [DONE]`), shaped for the openai SDK's strict stream helper: the first chunk carries
 * `role: "assistant"`, every chunk carries id, object, created and model, and the first
 * fragment of each tool call carries its index, id, type and name.
 * @module
 */
import { chainSteps, type Sink, type Step, stepStream } from "../../core/step.ts";
import type { StreamPart } from "../../core/stream.ts";
import { assertNever } from "../../core/stream.ts";
import { GatewayError } from "../../core/errors.ts";
import { sseText, utf8Step } from "../../sse/encode_sse.ts";
import type { EncodeContext } from "../codec.ts";
import { openaiErrorBody } from "./encode_error.ts";
import { type ChatFinishReason, toFinishReason } from "./map_stop_reason.ts";
import { toChatUsage } from "./map_usage.ts";
import { chatCompletionId } from "./encode_response.ts";

type Delta = Record<string, unknown>;

/** Separates consecutive text (or reasoning) blocks, as `encodeResponse` joins them. */
const BLOCK_SEPARATOR = "\n\n";

/** The `encodeStream` of the chat wire. A refusal's explanation goes out as a `delta.refusal`
 * chunk just before the finish chunk (its category has no chat field). Usage goes out as a last
 * `choices: []` chunk only when the client asked with `stream_options.include_usage`. An
 * `error` part becomes OpenAI's in-stream `{"error":{...}}` event, which ends the stream (no
 * `[DONE]` after it). */
export function encodeStreamStep(ctx: EncodeContext): Step<StreamPart, string> {
  let ctrl!: Sink<string>;
  let id = "";
  let created = 0;
  let closed = false;
  const tools = new Map<number, { index: number; custom: boolean }>();
  /** Per kind: a block of that kind already wrote text, and whether the next one must be
   * separated from it. */
  const wrote = { text: false, reasoning: false };
  const separate = { text: false, reasoning: false };

  const send = (payload: unknown) => ctrl.enqueue(sseText(JSON.stringify(payload)));
  const envelope = (rest: Record<string, unknown>) =>
    send({ id, object: "chat.completion.chunk", created, model: ctx.clientModel, ...rest });
  const choice = (delta: Delta, finishReason: ChatFinishReason | null) =>
    envelope({ choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });

  function begin(partId: string, partCreated: number) {
    id = chatCompletionId(partId);
    created = partCreated;
    choice({ role: "assistant", content: "" }, null);
  }

  function chunk(delta: Delta, finishReason: ChatFinishReason | null = null) {
    if (!id) begin(crypto.randomUUID(), Math.floor(Date.now() / 1000));
    choice(delta, finishReason);
  }

  function writeText(kind: "text" | "reasoning", text: string) {
    if (!text) return;
    const prefix = separate[kind] ? BLOCK_SEPARATOR : "";
    separate[kind] = false;
    wrote[kind] = true;
    chunk(kind === "text" ? { content: prefix + text } : { reasoning_content: prefix + text });
  }

  /** A clean end says `[DONE]`; a broken one ends with the error chunk alone, as OpenAI's own
   * streams do, so no client takes the partial answer for a complete one. */
  function end(error?: GatewayError) {
    ctrl.enqueue(sseText(error ? JSON.stringify(openaiErrorBody(error)) : "[DONE]"));
    closed = true;
  }

  function handle(part: StreamPart) {
    switch (part.type) {
      case "start":
        if (!id) begin(part.id, part.created);
        return;
      case "text_start":
      case "reasoning_start": {
        const kind = part.type === "text_start" ? "text" : "reasoning";
        separate[kind] = wrote[kind];
        return;
      }
      case "text_delta":
        return writeText("text", part.text);
      case "reasoning_delta":
        return writeText("reasoning", part.text);
      case "tool_call_start": {
        const custom = part.kind === "custom";
        const index = tools.size;
        tools.set(part.index, { index, custom });
        const call = custom
          ? { index, id: part.id, type: "custom", custom: { name: part.name, input: "" } }
          : {
            index,
            id: part.id,
            type: "function",
            function: { name: part.name, arguments: "" },
          };
        return chunk({ tool_calls: [call] });
      }
      case "tool_call_delta": {
        const tool = tools.get(part.index);
        if (!tool || !part.delta) return;
        const call = tool.custom
          ? { index: tool.index, custom: { input: part.delta } }
          : { index: tool.index, function: { arguments: part.delta } };
        return chunk({ tool_calls: [call] });
      }
      case "text_end":
      case "reasoning_end":
      case "reasoning_token":
      case "tool_call_end":
        // Chat has no block boundaries, and no field for opaque reasoning.
        return;
      case "finish":
        // The refusal is known only at the end (Anthropic's stop_details); the SDK's stream
        // helper accumulates `delta.refusal` into `message.refusal`.
        if (part.stopDetails?.explanation) chunk({ refusal: part.stopDetails.explanation });
        chunk({}, toFinishReason(part.stopReason));
        if (ctx.request.includeStreamUsage) {
          envelope({ choices: [], usage: toChatUsage(part.usage) });
        }
        return end();
      case "error":
        return end(part.error);
      default:
        return assertNever(part, "stream part");
    }
  }

  return {
    transform(part, controller) {
      ctrl = controller;
      if (!closed) handle(part);
    },
    flush(controller) {
      ctrl = controller;
      if (closed) return;
      end(
        new GatewayError(
          "upstream",
          502,
          "The response stream ended before it finished; the answer is incomplete. Retry the " +
            "request.",
          { code: "stream_incomplete" },
        ),
      );
    },
  };
}

/** The step as a `TransformStream`. */
export function encodeStream(ctx: EncodeContext): TransformStream<StreamPart, Uint8Array> {
  return stepStream(chainSteps(encodeStreamStep(ctx), utf8Step()));
}
