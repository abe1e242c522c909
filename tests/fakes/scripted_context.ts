/**
 * What every scripted wire renderer needs besides the step: model, token numbers, id seed, time.
 * @module
 */

import type { ScriptedStep } from "./scripted_plan.ts";
import { estimateTokens } from "./tokens.ts";

/** Inputs shared by the three renderers. */
export interface ReplyContext {
  /** Echoed from the request (`"scripted"` when it has none). */
  model: string;
  /** `estimateTokens(raw request body)`. */
  inputTokens: number;
  /** Output tokens of the step (see {@linkcode stepOutputTokens}). */
  outputTokens: number;
  /** Seeds every id of the reply: the request number and its body. */
  seed: string;
  /** Unix seconds. */
  created: number;
}

/** The JSON arguments string of a tool-call step. */
export function stepArguments(step: ScriptedStep & { kind: "tool_call" }): string {
  return JSON.stringify(step.input);
}

/** Output tokens: `estimateTokens` of the text, or of the call's name plus arguments. */
export function stepOutputTokens(step: ScriptedStep): number {
  switch (step.kind) {
    case "text":
      return Math.max(1, estimateTokens(step.text));
    case "tool_call":
      return estimateTokens(step.name + stepArguments(step));
    case "local_shell_call":
      return estimateTokens(JSON.stringify(step.command));
  }
}

/** Builds the context of a request. */
export function replyContext(
  body: unknown,
  rawBody: string,
  requestNumber: number,
  step: ScriptedStep,
): ReplyContext {
  const model = typeof body === "object" && body !== null && "model" in body &&
      typeof body.model === "string"
    ? body.model
    : "scripted";
  return {
    model,
    inputTokens: estimateTokens(rawBody),
    outputTokens: stepOutputTokens(step),
    seed: `${requestNumber}:${rawBody}`,
    created: Math.floor(Date.now() / 1000),
  };
}
