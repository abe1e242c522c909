/**
 * An upstream Messages event stream → core stream parts, one event at a time.
 *
 * - Blocks are renumbered 0, 1, 2, ... in the order they open; server tool blocks
 *   (`server_tool_use`, `web_search_tool_result`, ...) are skipped, their events ignored.
 * - A tool_use block always yields arguments that parse as JSON: Anthropic opens it with
 *   `input: {}` and may send only an empty `partial_json` (a tool without arguments), so
 *   `{}` is emitted at its stop when nothing else came. A custom tool's input arrives wrapped
 *   (`{"input": raw}`) and is buffered to its stop, then unwrapped.
 * - `message_delta` usage may carry input counts too (some servers report input only there);
 *   the latest value of each counter wins. Its `stop_details` (a refusal's explanation and
 *   category) go to the `finish` part.
 * - `error` events become an `error` part; a stream that ends before `message_stop` too.
 * @module
 */
import { type Sink, type Step, stepStream } from "../../core/step.ts";
import { GatewayError, streamIncomplete } from "../../core/errors.ts";
import type { CoreRequest } from "../../core/request.ts";
import type { StopDetails, StopReason } from "../../core/response.ts";
import type { StreamPart } from "../../core/stream.ts";
import type { SseEvent } from "../../sse/parse_sse.ts";
import { decodeAnthropicStreamError } from "./decode_error.ts";
import { type Block, deltaBlock, startBlock, stopBlock } from "./decode_stream_blocks.ts";
import { stopReasonFromAnthropic } from "./map_stop_reason.ts";
import { type AnthropicUsageFields, usageFromAnthropic } from "./map_usage.ts";
import { stopDetailsFromAnthropic } from "./stop_details.ts";
import { upstreamToolResolver } from "./upstream_tools.ts";

type Json = Record<string, unknown>;

type Out = Sink<StreamPart>;

const COUNTERS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
] as const;

const str = (value: unknown): string => typeof value === "string" ? value : "";
const obj = (value: unknown): Json =>
  typeof value === "object" && value !== null ? value as Json : {};

/** Decodes the upstream stream of one request. */
export function decodeStreamStep(
  request: CoreRequest,
  provider: string,
): Step<SseEvent, StreamPart> {
  const resolve = upstreamToolResolver(request);
  const blocks = new Map<number, Block | null>();
  let nextIndex = 0;
  let ended = false;
  let stopReason: string | null = null;
  let stopSequence: string | null = null;
  let stopDetails: StopDetails | undefined;
  const usage: AnthropicUsageFields = {};

  const fail = (out: Out, error: GatewayError) => {
    out.enqueue({ type: "error", error });
    ended = true;
  };

  /** Keeps the latest value of each counter (Anthropic reports cumulative totals). */
  const addUsage = (fields: Json) => {
    for (const key of COUNTERS) {
      const value = fields[key];
      if (typeof value === "number") usage[key] = value;
    }
    const thinking = obj(fields.output_tokens_details).thinking_tokens;
    if (typeof thinking === "number") usage.output_tokens_details = { thinking_tokens: thinking };
  };

  const finish = (out: Out) => {
    for (const block of blocks.values()) if (block !== null) stopBlock(out, block);
    blocks.clear();
    const mapped: StopReason | undefined = stopReasonFromAnthropic(stopReason);
    out.enqueue({
      type: "finish",
      // An unknown or missing stop reason: the message did end normally (message_stop came).
      stopReason: mapped ?? "end_turn",
      ...(stopSequence !== null ? { stopSequence } : {}),
      ...(stopDetails !== undefined ? { stopDetails } : {}),
      usage: usageFromAnthropic(usage),
    });
    ended = true;
  };

  const handle = (out: Out, event: Json) => {
    switch (event.type) {
      case "message_start": {
        const message = obj(event.message);
        addUsage(obj(message.usage));
        const start = usageFromAnthropic(usage);
        out.enqueue({
          type: "start",
          id: str(message.id),
          model: str(message.model),
          created: Math.floor(Date.now() / 1000),
          usage: {
            inputTokens: start.inputTokens,
            cacheReadTokens: start.cacheReadTokens,
            cacheWriteTokens: start.cacheWriteTokens,
            outputTokens: start.outputTokens,
          },
        });
        break;
      }
      case "content_block_start": {
        const block = startBlock(out, nextIndex, obj(event.content_block), resolve);
        blocks.set(Number(event.index), block);
        // A skipped block takes no core index: the core blocks are numbered without gaps.
        if (block !== null) nextIndex++;
        break;
      }
      case "content_block_delta": {
        const block = blocks.get(Number(event.index));
        if (block) deltaBlock(out, block, obj(event.delta));
        break;
      }
      case "content_block_stop": {
        const at = Number(event.index);
        const block = blocks.get(at);
        blocks.delete(at);
        if (block) stopBlock(out, block);
        break;
      }
      case "message_delta": {
        const delta = obj(event.delta);
        if (typeof delta.stop_reason === "string") stopReason = delta.stop_reason;
        if (typeof delta.stop_sequence === "string") stopSequence = delta.stop_sequence;
        // A stream has no warning channel: recommended_model and unknown detail types drop.
        if (delta.stop_details != null) {
          stopDetails = stopDetailsFromAnthropic(delta.stop_details).value;
        }
        addUsage(obj(event.usage));
        break;
      }
      case "message_stop":
        finish(out);
        break;
      case "error":
        fail(out, decodeAnthropicStreamError(provider, event));
        break;
        // ping and future event types carry nothing.
    }
  };

  return {
    transform(event, out) {
      if (ended) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        fail(
          out,
          new GatewayError(
            "upstream",
            502,
            `Provider "${provider}" sent a stream event that is not JSON.`,
          ),
        );
        return;
      }
      const payload = obj(parsed);
      // The SSE name and the JSON type agree on Anthropic; an error event may lack the type.
      if (event.event === "error" && payload.type === undefined) payload.type = "error";
      handle(out, payload);
    },
    flush(out) {
      if (ended) return;
      fail(out, streamIncomplete(provider, "message_stop"));
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
