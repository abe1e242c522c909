/**
 * Renders a scripted step on the Anthropic Messages wire, shaped like
 * `anthropic-messages/anthropic-text.*` and `anthropic-json-tool.*` in the recordings.
 * @module
 */

import type { ReplyContext } from "./scripted_context.ts";
import type { ScriptedStep } from "./scripted_plan.ts";
import { fakeId, splitPieces, wordPieces } from "./scripted_text.ts";

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

function block(step: ScriptedStep, ctx: ReplyContext): Block {
  switch (step.kind) {
    case "text":
      return { type: "text", text: step.text };
    case "tool_call":
      return {
        type: "tool_use",
        id: fakeId("toolu_01", ctx.seed + ":tool", 22),
        name: step.name,
        input: step.input,
      };
    case "local_shell_call":
      throw new Error("scripted upstream: local_shell exists on the Responses wire only");
  }
}

function usage(ctx: ReplyContext, outputTokens: number) {
  return {
    input_tokens: ctx.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: "standard",
  };
}

function header(ctx: ReplyContext) {
  return {
    model: ctx.model,
    id: fakeId("msg_01", ctx.seed + ":msg", 22),
    type: "message",
    role: "assistant",
  };
}

function stopReason(content: Block): "tool_use" | "end_turn" {
  return content.type === "tool_use" ? "tool_use" : "end_turn";
}

/** The non-streamed `POST /v1/messages` body. */
export function anthropicMessage(step: ScriptedStep, ctx: ReplyContext): Record<string, unknown> {
  const content = block(step, ctx);
  return {
    ...header(ctx),
    content: [content],
    stop_reason: stopReason(content),
    stop_sequence: null,
    usage: usage(ctx, ctx.outputTokens),
  };
}

/** The streamed events, in order (SSE `event:` = `type`). */
export function anthropicEvents(step: ScriptedStep, ctx: ReplyContext): Record<string, unknown>[] {
  const content = block(step, ctx);
  const deltas = content.type === "text"
    ? wordPieces(content.text).map((text) => ({ type: "text_delta", text }))
    // Like the recordings: an empty first piece, then the arguments in 2+ pieces.
    : ["", ...splitPieces(JSON.stringify(content.input))]
      .map((partial_json) => ({ type: "input_json_delta", partial_json }));
  const start = content.type === "text" ? { type: "text", text: "" } : { ...content, input: {} };
  return [
    {
      type: "message_start",
      message: {
        ...header(ctx),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usage(ctx, 1),
      },
    },
    { type: "content_block_start", index: 0, content_block: start },
    { type: "ping" },
    ...deltas.map((delta) => ({ type: "content_block_delta", index: 0, delta })),
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: stopReason(content), stop_sequence: null },
      usage: {
        input_tokens: ctx.inputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: ctx.outputTokens,
      },
    },
    { type: "message_stop" },
  ];
}
