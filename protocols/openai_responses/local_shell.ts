/**
 * The Responses `local_shell` built-in is executed by the client (Codex), not by OpenAI, so it
 * travels through core as a function tool named `local_shell` (marked `native`) whose arguments
 * are the exec action without its `type`. Every upstream can then call it; the OpenAI Responses
 * upstream gets the native tool back, and the Responses client codec turns calls of it back
 * into `local_shell_call` items.
 * @module
 */
import type { FunctionTool } from "../../core/request.ts";
import type { WireLocalShellAction } from "./wire.ts";

/** The name of the function carrying `local_shell`. */
export const LOCAL_SHELL_NAME = "local_shell";

/** The function tool that stands for the native `local_shell` tool. */
export function localShellFunctionTool(): FunctionTool {
  return {
    type: "function",
    name: LOCAL_SHELL_NAME,
    description: "Runs a command on the user's machine and returns its output. " +
      "`command` is the program and its arguments (argv form).",
    parameters: {
      type: "object",
      properties: {
        command: { type: "array", items: { type: "string" } },
        env: { type: "object", additionalProperties: { type: "string" } },
        working_directory: { type: "string" },
        timeout_ms: { type: "integer" },
      },
      required: ["command"],
    },
    native: LOCAL_SHELL_NAME,
  };
}

/** An exec action → the function arguments (JSON of the action without `type`). */
export function localShellArguments(action: {
  command: string[];
  env?: Record<string, string> | null;
  working_directory?: string | null;
  timeout_ms?: number | null;
  user?: string | null;
}): string {
  const args: Record<string, unknown> = { command: action.command };
  if (action.env && Object.keys(action.env).length > 0) args.env = action.env;
  if (action.working_directory) args.working_directory = action.working_directory;
  if (typeof action.timeout_ms === "number") args.timeout_ms = action.timeout_ms;
  if (action.user) args.user = action.user;
  return JSON.stringify(args);
}

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === "string");

/** Function arguments → the exec action, or null when they are not a JSON object with a
 * string-array `command` (a model that called the function wrongly). */
export function localShellAction(args: string): WireLocalShellAction | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const o = parsed as Record<string, unknown>;
  const command = typeof o.command === "string" ? [o.command] : o.command;
  if (!Array.isArray(command) || !command.every((c) => typeof c === "string")) return null;
  const action: WireLocalShellAction = {
    type: "exec",
    command,
    env: isStringRecord(o.env) ? o.env : {},
  };
  if (typeof o.working_directory === "string") action.working_directory = o.working_directory;
  if (typeof o.timeout_ms === "number") action.timeout_ms = o.timeout_ms;
  if (typeof o.user === "string") action.user = o.user;
  return action;
}
