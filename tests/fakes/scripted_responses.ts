/**
 * Renders a scripted step on the OpenAI Responses wire, shaped like
 * `openai-responses/openai-reasoning-encrypted-content.1.*` (function calls and text) and
 * `openai-local-shell-tool.1.*` in the recordings. Every event has a `sequence_number`.
 * @module
 */

import { type ReplyContext, stepArguments } from "./scripted_context.ts";
import type { ScriptedStep } from "./scripted_plan.ts";
import { fakeId, splitPieces, wordPieces } from "./scripted_text.ts";

type Obj = Record<string, unknown>;

/** The request fields a response object echoes. */
export interface EchoedRequest {
  instructions?: unknown;
  tools?: unknown;
  store?: unknown;
  tool_choice?: unknown;
  parallel_tool_calls?: unknown;
}

function hexId(prefix: string, ctx: ReplyContext, salt: string): string {
  return fakeId(prefix, `${ctx.seed}:${salt}`, 50, "hex");
}

/** The completed output item of the step. */
function outputItem(step: ScriptedStep, ctx: ReplyContext): Obj {
  const callId = fakeId("call_", ctx.seed + ":call", 24);
  switch (step.kind) {
    case "text":
      return {
        id: hexId("msg_", ctx, "msg"),
        type: "message",
        status: "completed",
        content: [{ type: "output_text", annotations: [], logprobs: [], text: step.text }],
        role: "assistant",
      };
    case "tool_call":
      return {
        id: hexId("fc_", ctx, "fc"),
        type: "function_call",
        status: "completed",
        arguments: stepArguments(step),
        call_id: callId,
        name: step.name,
      };
    case "local_shell_call":
      return {
        id: hexId("lsh_", ctx, "lsh"),
        type: "local_shell_call",
        status: "completed",
        action: { type: "exec", command: step.command, env: {} },
        call_id: callId,
      };
  }
}

function response(ctx: ReplyContext, echo: EchoedRequest, status: string, output: Obj[]): Obj {
  const done = status === "completed";
  return {
    id: hexId("resp_", ctx, "resp"),
    object: "response",
    created_at: ctx.created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: echo.instructions ?? null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: ctx.model,
    output,
    parallel_tool_calls: echo.parallel_tool_calls ?? true,
    previous_response_id: null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: done ? "default" : "auto",
    store: echo.store ?? true,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: echo.tool_choice ?? "auto",
    tools: echo.tools ?? [],
    top_logprobs: 0,
    top_p: 1,
    truncation: "disabled",
    usage: done
      ? {
        input_tokens: ctx.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: ctx.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: ctx.inputTokens + ctx.outputTokens,
      }
      : null,
    user: null,
    metadata: {},
  };
}

/** The non-streamed `POST /v1/responses` body. */
export function responsesBody(step: ScriptedStep, ctx: ReplyContext, echo: EchoedRequest): Obj {
  return response(ctx, echo, "completed", [outputItem(step, ctx)]);
}

/** The events between `output_item.added` and `output_item.done` for the finished item. */
function itemEvents(item: Obj): Obj[] {
  const at = { item_id: item.id, output_index: 0 };
  switch (item.type) {
    case "function_call": {
      const args = String(item.arguments);
      return [
        ...splitPieces(args).map((delta) => ({
          type: "response.function_call_arguments.delta",
          ...at,
          delta,
        })),
        { type: "response.function_call_arguments.done", ...at, arguments: args },
      ];
    }
    case "message": {
      const text = String((item.content as Obj[])[0]?.text ?? "");
      const part = (t: string) => ({ type: "output_text", annotations: [], logprobs: [], text: t });
      const inPart = { ...at, content_index: 0 };
      return [
        { type: "response.content_part.added", ...inPart, part: part("") },
        ...wordPieces(text).map((delta) => ({
          type: "response.output_text.delta",
          ...inPart,
          delta,
          logprobs: [],
        })),
        { type: "response.output_text.done", ...inPart, text, logprobs: [] },
        { type: "response.content_part.done", ...inPart, part: part(text) },
      ];
    }
    default:
      return [];
  }
}

/** The item as `output_item.added` announces it: in progress, nothing generated yet. */
function startedItem(item: Obj): Obj {
  switch (item.type) {
    case "function_call":
      return { ...item, status: "in_progress", arguments: "" };
    case "message":
      return { ...item, status: "in_progress", content: [] };
    default:
      return { ...item, status: "in_progress", action: { type: "exec", command: [], env: {} } };
  }
}

/** The streamed events, in order, numbered by `sequence_number` (SSE `event:` = `type`). */
export function responsesEvents(step: ScriptedStep, ctx: ReplyContext, echo: EchoedRequest): Obj[] {
  const item = outputItem(step, ctx);
  const events: Obj[] = [
    { type: "response.created", response: response(ctx, echo, "in_progress", []) },
    { type: "response.in_progress", response: response(ctx, echo, "in_progress", []) },
    { type: "response.output_item.added", output_index: 0, item: startedItem(item) },
    ...itemEvents(item),
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: response(ctx, echo, "completed", [item]) },
  ];
  return events.map((event, sequence_number) => ({ ...event, sequence_number }));
}
