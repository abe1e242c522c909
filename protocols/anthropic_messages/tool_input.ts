/**
 * Tool-call arguments between core (JSON text, or raw text for custom tools) and Anthropic's
 * `input` object. Anthropic has no free-form tools: a core custom tool travels as a function
 * tool with one string property (`CUSTOM_TOOL_INPUT_FIELD`), so its raw input is wrapped as
 * `{"input": raw}` going out and unwrapped coming back.
 * @module
 */
import type { ToolCallPart } from "../../core/content.ts";
import { CUSTOM_TOOL_INPUT_FIELD } from "../../core/request.ts";

/** The `input` object for a tool call, and what went wrong if the arguments were unusable. */
export function toolInputOf(
  part: Pick<ToolCallPart, "arguments" | "kind">,
): { input: Record<string, unknown>; problem?: string } {
  if (part.kind === "custom") return { input: { [CUSTOM_TOOL_INPUT_FIELD]: part.arguments } };
  if (part.arguments.trim() === "") return { input: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(part.arguments);
  } catch {
    return { input: {}, problem: "the arguments are not valid JSON; sent as {}" };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { input: {}, problem: "the arguments are not a JSON object; sent as {}" };
  }
  return { input: parsed as Record<string, unknown> };
}

/** The core arguments of an Anthropic `input`: JSON text, or for a custom tool the raw text of
 * its wrapped field (JSON text when the model did not use the wrapper). */
export function toolArgumentsOf(input: unknown, kind: ToolCallPart["kind"]): string {
  if (kind === "custom" && typeof input === "object" && input !== null) {
    const raw = (input as Record<string, unknown>)[CUSTOM_TOOL_INPUT_FIELD];
    if (typeof raw === "string") return raw;
  }
  return JSON.stringify(input ?? {});
}
