/**
 * Renders a scripted step on the OpenAI Chat Completions wire, shaped like
 * `openai-chat/openai-text.*` in the recordings (tool calls as OpenAI streams them: id, type and
 * name in the first tool delta, then argument pieces).
 * @module
 */

import { type ReplyContext, stepArguments } from "./scripted_context.ts";
import type { ScriptedStep } from "./scripted_plan.ts";
import { fakeId, splitPieces, wordPieces } from "./scripted_text.ts";

const FINGERPRINT = "fp_5c7a2e9f01";

interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

function toolCall(step: ScriptedStep, ctx: ReplyContext): ToolCall | undefined {
  switch (step.kind) {
    case "text":
      return undefined;
    case "tool_call":
      return {
        id: fakeId("call_", ctx.seed + ":call", 24),
        type: "function",
        function: { name: step.name, arguments: stepArguments(step) },
      };
    case "local_shell_call":
      throw new Error("scripted upstream: local_shell exists on the Responses wire only");
  }
}

function usage(ctx: ReplyContext) {
  return {
    prompt_tokens: ctx.inputTokens,
    completion_tokens: ctx.outputTokens,
    total_tokens: ctx.inputTokens + ctx.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function header(ctx: ReplyContext, object: string) {
  return {
    id: fakeId("chatcmpl-", ctx.seed + ":chat", 29),
    object,
    created: ctx.created,
    model: ctx.model,
  };
}

/** The non-streamed `POST /v1/chat/completions` body. */
export function chatCompletion(step: ScriptedStep, ctx: ReplyContext): Record<string, unknown> {
  const call = toolCall(step, ctx);
  const message = call === undefined
    ? { role: "assistant", content: step.kind === "text" ? step.text : "", refusal: null }
    : { role: "assistant", content: null, tool_calls: [call], refusal: null };
  return {
    ...header(ctx, "chat.completion"),
    choices: [{
      index: 0,
      message: { ...message, annotations: [] },
      logprobs: null,
      finish_reason: call === undefined ? "stop" : "tool_calls",
    }],
    usage: usage(ctx),
    service_tier: "default",
    system_fingerprint: FINGERPRINT,
  };
}

/**
 * The streamed chunks, in order (`data: [DONE]` is added by the framing). With `includeUsage`
 * (`stream_options.include_usage`) every chunk has `usage: null` and a last chunk with empty
 * `choices` carries the usage, as OpenAI sends it.
 */
export function chatChunks(
  step: ScriptedStep,
  ctx: ReplyContext,
  includeUsage: boolean,
): Record<string, unknown>[] {
  const call = toolCall(step, ctx);
  const base = { ...header(ctx, "chat.completion.chunk"), service_tier: "default" };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const body = call === undefined
    ? [
      chunk({ role: "assistant", content: "", refusal: null }),
      ...wordPieces(step.kind === "text" ? step.text : "").map((content) => chunk({ content })),
      chunk({}, "stop"),
    ]
    : [
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [{ index: 0, ...call, function: { name: call.function.name, arguments: "" } }],
        refusal: null,
      }),
      ...splitPieces(call.function.arguments).map((piece) =>
        chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })
      ),
      chunk({}, "tool_calls"),
    ];
  if (!includeUsage) return body;
  return [...body, { ...base, system_fingerprint: FINGERPRINT, choices: [], usage: usage(ctx) }];
}
