/**
 * Upstream Responses events → core stream parts, translated one event at a time. Blocks are
 * numbered in the order they start. Text comes from `output_text` content parts (`refusal`
 * parts become the finish part's stop details); reasoning from summary parts (joined by blank
 * lines, one block per reasoning item, started only when it has text or an encrypted token);
 * calls from `output_item.added`, their argument or input deltas, and `output_item.done` (some
 * upstreams send no deltas: the full arguments are emitted there). The terminal events map to
 * `finish` (`response.completed`, `response.incomplete`) or `error` (`response.failed`,
 * `error`); an end without one is an error too. Unparsable events are skipped (as Codex does)
 * and counted in that error.
 * @module
 */
import { type Sink, type Step, stepStream } from "../../core/step.ts";
import { streamIncomplete } from "../../core/errors.ts";
import { type CoreRequest, withoutMessages } from "../../core/request.ts";
import type { StreamPart } from "../../core/stream.ts";
import type { SseEvent } from "../../sse/parse_sse.ts";
import { toolNameRestorer } from "../tool_names.ts";
import type { RawItem } from "./decode_response.ts";
import { rest, streamItems } from "./stream_items.ts";
import { streamFailure } from "./error_codes.ts";
import { stopReasonOf } from "./map_stop_reason.ts";
import { type ResponsesUsageFields, usageFromResponses } from "./map_usage.ts";

/** Events that carry the response object (the first one opens the stream), and `error`. */
const LIFECYCLE = new Set(["response.created", "response.in_progress", "response.queued", "error"]);

const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** Decodes one upstream stream. `provider` names the upstream in error messages. */
export function decodeStreamStep(
  provider: string,
  fullRequest: CoreRequest,
): Step<SseEvent, StreamPart> {
  const restore = toolNameRestorer(fullRequest);
  // What the step keeps for the stream's life: the request without its prompt.
  const request = withoutMessages(fullRequest);
  let out!: Sink<StreamPart>;
  let started = false;
  let ended = false;
  let unparsable = 0;
  const emit = (part: StreamPart) => out.enqueue(part);
  const items = streamItems(request, restore, emit);
  const start = (response?: RawItem) => {
    if (started) return;
    started = true;
    emit({
      type: "start",
      id: str(response?.id) || `resp_${crypto.randomUUID().replaceAll("-", "")}`,
      model: str(response?.model) || request.model,
      created: num(response?.created_at) || Math.floor(Date.now() / 1000),
    });
  };
  const finish = (response: RawItem) => {
    items.closeAll();
    const details = response.incomplete_details as { reason?: string } | null | undefined;
    const explanation = items.refusal();
    emit({
      type: "finish",
      stopReason: stopReasonOf(str(response.status) || "completed", details?.reason, items.seen),
      ...(explanation ? { stopDetails: { explanation } } : {}),
      usage: usageFromResponses((response.usage ?? {}) as ResponsesUsageFields),
    });
  };

  const handle = (e: RawItem) => {
    const oi = num(e.output_index);
    const ci = num(e.content_index);
    switch (e.type) {
      case "response.created":
      case "response.in_progress":
      case "response.queued":
        return start(e.response as RawItem);
      case "response.output_item.added":
        return items.added(oi, (e.item ?? {}) as RawItem);
      case "response.output_item.done":
        return items.done(oi, (e.item ?? {}) as RawItem);
      case "response.content_part.added": {
        const part = e.part as RawItem | undefined;
        const item = items.get(oi);
        if (item?.kind === "reasoning") return items.reasoningStart(item, false);
        if (part?.type === "refusal") return items.refusalDone(oi, ci, str(part.refusal));
        return items.textPart(item, ci);
      }
      case "response.output_text.delta":
        return items.textDelta(items.textPart(items.get(oi), ci), str(e.delta));
      case "response.output_text.done": {
        const part = items.textPart(items.get(oi), ci);
        return items.textDelta(part, rest(part?.text ?? "", str(e.text)));
      }
      case "response.refusal.delta":
        return items.refusalDelta(oi, ci, str(e.delta));
      case "response.refusal.done":
        return items.refusalDone(oi, ci, str(e.refusal));
      case "response.content_part.done": {
        const item = items.get(oi);
        if (item?.kind !== "message") return;
        const part = e.part as RawItem | undefined;
        if (part?.type === "refusal") return items.refusalDone(oi, ci, str(part.refusal));
        return items.textEnd(item.parts.get(ci) ?? null, str(part?.text));
      }
      case "response.reasoning_summary_part.added": {
        const item = items.get(oi);
        if (item?.kind !== "reasoning") return;
        if (item.summaries++ > 0 && item.text) items.reasoningDelta(item, "\n\n");
        return items.reasoningStart(item, true);
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const item = items.get(oi);
        if (item?.kind === "reasoning") items.reasoningDelta(item, str(e.delta));
        return;
      }
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta":
        return items.callDelta(items.get(oi), str(e.delta));
      case "response.function_call_arguments.done":
      case "response.custom_tool_call_input.done": {
        const item = items.get(oi);
        if (item?.kind !== "call") return;
        const full = str(
          e.type === "response.function_call_arguments.done" ? e.arguments : e.input,
        );
        return items.callDelta(item, item.args === "" ? full : rest(item.args, full));
      }
      case "response.completed":
      case "response.incomplete":
        ended = true;
        return finish((e.response ?? {}) as RawItem);
      case "response.failed": {
        ended = true;
        const error = ((e.response as RawItem | undefined)?.error ?? {}) as RawItem;
        return emit({
          type: "error",
          error: streamFailure(provider, str(error.code), str(error.message)),
        });
      }
      case "error": {
        ended = true;
        const error = (typeof e.error === "object" && e.error !== null ? e.error : e) as RawItem;
        const code = str(error.code) || str(error.type);
        return emit({ type: "error", error: streamFailure(provider, code, str(error.message)) });
      }
    }
  };

  return {
    start(controller) {
      out = controller;
    },
    transform(event) {
      if (ended) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        unparsable++;
        return;
      }
      if (typeof parsed !== "object" || parsed === null) return void unparsable++;
      const e = parsed as RawItem;
      if (e.type === undefined && event.event) e.type = event.event;
      if (!LIFECYCLE.has(String(e.type))) start();
      handle(e);
    },
    flush() {
      if (ended) return;
      start();
      const skipped = unparsable > 0 ? ` (${unparsable} events could not be parsed)` : "";
      emit({
        type: "error",
        error: streamIncomplete(provider, "response.completed", skipped),
      });
    },
  };
}

/** The step as a `TransformStream`. */
export function decodeStream(
  provider: string,
  request: CoreRequest,
): TransformStream<SseEvent, StreamPart> {
  return stepStream(decodeStreamStep(provider, request));
}
