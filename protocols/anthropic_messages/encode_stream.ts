/**
 * Core stream parts → the Messages event stream a client receives: `message_start`, blocks
 * (`content_block_start` / `_delta` / `_stop`, numbered 0, 1, 2, ... in the order they open),
 * `message_delta`, `message_stop`; or an `error` event, which ends the stream.
 *
 * Text and thinking blocks open at their first content, so an upstream's empty text or an
 * unshowable reasoning item never becomes an empty block the client would replay (Anthropic
 * rejects empty text blocks). A redacted block is only known at its end and is written then.
 * @module
 */
import { chainSteps, type Sink, type Step, stepStream } from "../../core/step.ts";
import type { StreamPart } from "../../core/stream.ts";
import { assertNever } from "../../core/stream.ts";
import { GatewayError } from "../../core/errors.ts";
import type { Usage } from "../../core/response.ts";
import { sseTyped, utf8Step } from "../../sse/encode_sse.ts";
import type { EncodeContext } from "../codec.ts";
import { anthropicErrorBody } from "./encode_error.ts";
import { anthropicMessageId, thinkingOmitted } from "./encode_response.ts";
import { stopReasonToAnthropic } from "./map_stop_reason.ts";
import { usageToAnthropic } from "./map_usage.ts";
import { stopDetailsToAnthropic } from "./stop_details.ts";
import { toolInputOf } from "./tool_input.ts";

/** One block being written. `wire` is null until the block has been opened on the wire. */
type Block =
  | { kind: "text"; wire: number | null }
  | { kind: "reasoning"; wire: number | null; token?: string }
  | { kind: "tool"; wire: number; custom: boolean; buffer: string };

type Out = Sink<string>;
type WireEvent = { type: string } & Record<string, unknown>;

function startUsage(usage: Partial<Usage> | undefined) {
  const read = usage?.cacheReadTokens ?? 0;
  const write = usage?.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.inputTokens ?? 0) - read - write),
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    output_tokens: usage?.outputTokens ?? 0,
  };
}

/** The `message_delta` usage: output always, input side only when the finish part knows it
 * (a zero would overwrite the count `message_start` already gave). */
function deltaUsage(usage: Usage): Record<string, unknown> {
  const wire = usageToAnthropic(usage);
  const out: Record<string, unknown> = { output_tokens: wire.output_tokens };
  if (usage.inputTokens > 0) {
    out.input_tokens = wire.input_tokens;
    out.cache_creation_input_tokens = wire.cache_creation_input_tokens;
    out.cache_read_input_tokens = wire.cache_read_input_tokens;
  }
  if (wire.output_tokens_details !== undefined) {
    out.output_tokens_details = wire.output_tokens_details;
  }
  return out;
}

/** The SSE error event for a gateway error. */
export function errorEvent(error: GatewayError): string {
  return sseTyped(anthropicErrorBody(error));
}

/** Encodes the client's event stream. */
export function encodeStreamStep(ctx: EncodeContext): Step<StreamPart, string> {
  const omitted = thinkingOmitted(ctx);
  const blocks = new Map<number, Block>();
  let started = false;
  let done = false;
  let nextWire = 0;

  const emit = (out: Out, payload: WireEvent) => out.enqueue(sseTyped(payload));

  const begin = (out: Out, id: string, usage?: Partial<Usage>) => {
    started = true;
    emit(out, {
      type: "message_start",
      message: {
        id: anthropicMessageId(id),
        type: "message",
        role: "assistant",
        model: ctx.clientModel,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: startUsage(usage),
      },
    });
  };

  const open = (out: Out, contentBlock: Record<string, unknown>): number => {
    if (!started) begin(out, crypto.randomUUID().replaceAll("-", ""));
    const index = nextWire++;
    emit(out, { type: "content_block_start", index, content_block: contentBlock });
    return index;
  };

  const delta = (out: Out, index: number, d: Record<string, unknown>) =>
    emit(out, { type: "content_block_delta", index, delta: d });

  const stop = (out: Out, index: number) => emit(out, { type: "content_block_stop", index });

  /** Writes what a block still holds and its stop; `redacted` comes from `reasoning_end`. */
  const close = (out: Out, block: Block, redacted = false) => {
    if (block.kind === "reasoning" && block.wire === null && block.token !== undefined) {
      if (redacted) {
        stop(out, open(out, { type: "redacted_thinking", data: block.token }));
        return;
      }
      block.wire = open(out, { type: "thinking", thinking: "", signature: "" });
      delta(out, block.wire, { type: "signature_delta", signature: block.token });
    }
    if (block.kind === "tool" && block.custom) {
      const { input } = toolInputOf({ kind: "custom", arguments: block.buffer });
      delta(out, block.wire, { type: "input_json_delta", partial_json: JSON.stringify(input) });
    }
    if (block.wire !== null) stop(out, block.wire);
  };

  const closeAll = (out: Out) => {
    const open = [...blocks.values()].sort((a, b) => (a.wire ?? Infinity) - (b.wire ?? Infinity));
    for (const block of open) close(out, block);
    blocks.clear();
  };

  const handle = (part: StreamPart, out: Out) => {
    switch (part.type) {
      case "start":
        if (!started) begin(out, part.id, part.usage);
        break;
      case "text_start":
        blocks.set(part.index, { kind: "text", wire: null });
        break;
      case "text_delta": {
        const block = blocks.get(part.index);
        if (block?.kind !== "text" || part.text === "") break;
        block.wire ??= open(out, { type: "text", text: "" });
        delta(out, block.wire, { type: "text_delta", text: part.text });
        break;
      }
      case "reasoning_start":
        blocks.set(part.index, { kind: "reasoning", wire: null });
        break;
      case "reasoning_delta": {
        const block = blocks.get(part.index);
        if (block?.kind !== "reasoning" || omitted || part.text === "") break;
        block.wire ??= open(out, { type: "thinking", thinking: "", signature: "" });
        delta(out, block.wire, { type: "thinking_delta", thinking: part.text });
        break;
      }
      case "reasoning_token": {
        // Another vendor's token means nothing to an Anthropic client.
        const block = blocks.get(part.index);
        if (block?.kind !== "reasoning" || part.token.vendor !== "anthropic") break;
        if (block.wire === null) block.token = part.token.value;
        else delta(out, block.wire, { type: "signature_delta", signature: part.token.value });
        break;
      }
      case "tool_call_start":
        blocks.set(part.index, {
          kind: "tool",
          wire: open(out, { type: "tool_use", id: part.id, name: part.name, input: {} }),
          custom: part.kind === "custom",
          buffer: "",
        });
        break;
      case "tool_call_delta": {
        const block = blocks.get(part.index);
        if (block?.kind !== "tool" || part.delta === "") break;
        if (block.custom) block.buffer += part.delta;
        else delta(out, block.wire, { type: "input_json_delta", partial_json: part.delta });
        break;
      }
      case "text_end":
      case "tool_call_end":
      case "reasoning_end": {
        const block = blocks.get(part.index);
        if (block === undefined) break;
        blocks.delete(part.index);
        close(out, block, part.type === "reasoning_end" && part.redacted === true);
        break;
      }
      case "finish":
        if (!started) begin(out, crypto.randomUUID().replaceAll("-", ""));
        closeAll(out);
        emit(out, {
          type: "message_delta",
          delta: {
            stop_reason: stopReasonToAnthropic(part.stopReason),
            stop_sequence: part.stopSequence ?? null,
            // Anthropic writes stop_details into message_delta only when it has some.
            ...(part.stopDetails ? { stop_details: stopDetailsToAnthropic(part.stopDetails) } : {}),
          },
          usage: deltaUsage(part.usage),
        });
        emit(out, { type: "message_stop" });
        done = true;
        break;
      case "error":
        out.enqueue(errorEvent(part.error));
        done = true;
        break;
      default:
        assertNever(part, "stream part");
    }
  };

  return {
    transform(part, out) {
      if (!done) handle(part, out);
    },
    flush(out) {
      if (done) return;
      out.enqueue(errorEvent(
        new GatewayError(
          "upstream",
          502,
          "The upstream stream ended before the response was complete; retry the request.",
        ),
      ));
    },
  };
}

/** The step as a `TransformStream`. */
export function encodeStream(ctx: EncodeContext): TransformStream<StreamPart, Uint8Array> {
  return stepStream(chainSteps(encodeStreamStep(ctx), utf8Step()));
}
