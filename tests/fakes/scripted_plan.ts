/**
 * Decides the scripted upstream's next step from the conversation, like a model doing one tool
 * round trip:
 *
 * - the latest turn carries a tool result → text `Tool said: <first line of its output>`;
 * - else, call the first offered tool in this order: `Read` with `{"file_path": <first token of
 *   the user text starting with "/">}`, `exec_command` with `{"cmd": <first `backticked` text>}`,
 *   `shell` with `{"command": ["bash", "-lc", <backticked text>]}`, a Responses `local_shell`
 *   tool with that command, else the first function tool with `{}`;
 * - no tool offered → text `You said: <first line of the newest user text>`.
 *
 * User texts are searched newest first, so a prompt after system reminders is found. When the
 * chosen tool's argument is not in any user text, the step is a text saying so (never a guess).
 * @module
 */

import type { Conversation, OfferedTool } from "./scripted_conversation.ts";
import { firstLine } from "./scripted_text.ts";

/** What the scripted model does this turn. */
export type ScriptedStep =
  | { kind: "text"; text: string }
  | { kind: "tool_call"; name: string; input: Record<string, unknown> }
  | { kind: "local_shell_call"; command: string[] };

/** Tools in the order the scripted model prefers them. */
export const TOOL_PREFERENCE: readonly string[] = ["Read", "exec_command", "shell", "local_shell"];

/** The first whitespace-separated token starting with "/", minus trailing punctuation. */
export function findPath(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const token = text.split(/\s+/).find((t) => t.startsWith("/") && t.length > 1);
    if (token !== undefined) return token.replace(/[.,;:!?)\]}"'`]+$/, "");
  }
  return undefined;
}

/** The first text inside backticks. */
export function findCommand(texts: readonly string[]): string | undefined {
  for (const text of texts) {
    const match = /`([^`]+)`/.exec(text);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

function toolName(tool: OfferedTool): string {
  return tool.kind === "function" ? tool.name : "local_shell";
}

function missing(what: string, tool: string): ScriptedStep {
  return { kind: "text", text: `Scripted upstream: no ${what} in the user text for ${tool}.` };
}

function callTool(tool: OfferedTool, texts: readonly string[]): ScriptedStep {
  const name = toolName(tool);
  if (tool.kind === "local_shell") {
    const cmd = findCommand(texts);
    return cmd === undefined ? missing("`command`", name) : {
      kind: "local_shell_call",
      command: ["bash", "-lc", cmd],
    };
  }
  switch (name) {
    case "Read": {
      const path = findPath(texts);
      return path === undefined
        ? missing("/path", name)
        : { kind: "tool_call", name, input: { file_path: path } };
    }
    case "exec_command": {
      const cmd = findCommand(texts);
      return cmd === undefined
        ? missing("`command`", name)
        : { kind: "tool_call", name, input: { cmd } };
    }
    case "shell": {
      const cmd = findCommand(texts);
      return cmd === undefined
        ? missing("`command`", name)
        : { kind: "tool_call", name, input: { command: ["bash", "-lc", cmd] } };
    }
    default:
      return { kind: "tool_call", name, input: {} };
  }
}

/** The next step for a conversation. */
export function planStep(conversation: Conversation): ScriptedStep {
  if (conversation.toolResult !== undefined) {
    return { kind: "text", text: `Tool said: ${firstLine(conversation.toolResult)}` };
  }
  const { tools, userTexts } = conversation;
  for (const preferred of TOOL_PREFERENCE) {
    const tool = tools.find((t) => toolName(t) === preferred);
    if (tool !== undefined) return callTool(tool, userTexts);
  }
  const first = tools.find((t) => t.kind === "function");
  if (first !== undefined) return callTool(first, userTexts);
  return { kind: "text", text: `You said: ${firstLine(userTexts[0] ?? "")}` };
}
