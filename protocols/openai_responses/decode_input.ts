/**
 * Responses `input` items → core messages. Consecutive assistant-side items (reasoning,
 * assistant messages, function/custom/local shell calls) merge into one assistant message in
 * order, consecutive tool outputs into one tool message; system and developer messages stay in
 * place.
 * @module
 */
import type { AssistantPart, ReasoningPart, TextPart, ToolResultPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreMessage } from "../../core/request.ts";
import { decodeParts } from "./decode_parts.ts";
import { LOCAL_SHELL_NAME, localShellArguments } from "./local_shell.ts";
import { flattenNamespaced } from "./namespaces.ts";
import { tokenOfEncryptedContent } from "./reasoning_token.ts";
import {
  CustomToolCallItemSchema,
  CustomToolCallOutputItemSchema,
  FunctionCallItemSchema,
  FunctionCallOutputItemSchema,
  LocalShellCallItemSchema,
  LocalShellCallOutputItemSchema,
  MessageItemSchema,
  parseAt,
  ReasoningItemSchema,
} from "./schemas.ts";

/** Builds the message list, merging consecutive assistant parts and tool results. */
class MessageList {
  readonly messages: CoreMessage[] = [];

  assistant(part: AssistantPart): void {
    const last = this.messages.at(-1);
    if (last?.role === "assistant") last.content.push(part);
    else this.messages.push({ role: "assistant", content: [part] });
  }

  tool(part: ToolResultPart): void {
    const last = this.messages.at(-1);
    if (last?.role === "tool") last.content.push(part);
    else this.messages.push({ role: "tool", content: [part] });
  }

  push(message: CoreMessage): void {
    this.messages.push(message);
  }
}

function textOnly(parts: ReturnType<typeof decodeParts>["value"], path: string, w: Warning[]) {
  const texts: TextPart[] = [];
  parts.forEach((part) => {
    if (part.type === "text") texts.push(part);
    else {
      w.push({
        field: path,
        message: `${part.type} content in a system, developer or assistant message has no ` +
          "counterpart; dropped.",
      });
    }
  });
  return texts;
}

function decodeMessage(item: unknown, path: string, out: MessageList, w: Warning[]): void {
  const m = parseAt(MessageItemSchema, item, path);
  const parts = decodeParts(m.content, `${path}.content`);
  w.push(...parts.warnings);
  switch (m.role) {
    case "user":
      out.push({ role: "user", content: parts.value });
      return;
    case "system":
    case "developer":
      out.push({
        role: "system",
        content: textOnly(parts.value, `${path}.content`, w),
        flavor: m.role,
      });
      return;
    case "assistant":
      for (const part of textOnly(parts.value, `${path}.content`, w)) out.assistant(part);
      return;
  }
}

function decodeReasoning(item: unknown, path: string, w: Warning[]): ReasoningPart {
  const r = parseAt(ReasoningItemSchema, item, path);
  const summary = r.summary.map((s) => s.text).filter((t) => t !== "");
  const content = (r.content ?? []).map((c) => c.text).filter((t) => t !== "");
  const part: ReasoningPart = {
    type: "reasoning",
    text: summary.length > 0 ? summary.join("\n\n") : content.join("\n\n"),
    summary: summary.length > 0 || content.length === 0,
  };
  if (summary.length > 0 && content.length > 0) {
    w.push({
      field: `${path}.content`,
      message: "raw reasoning text next to a summary cannot be carried; the summary is kept.",
    });
  }
  if (r.encrypted_content) {
    const { token, redacted } = tokenOfEncryptedContent(r.encrypted_content);
    part.token = token;
    if (redacted) part.redacted = true;
  }
  if (r.id) part.itemId = r.id;
  return part;
}

/** Decodes one item into `out`. */
function decodeItem(item: unknown, path: string, out: MessageList, w: Warning[]): void {
  const o = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
  const type = o.type ?? (o.role !== undefined ? "message" : undefined);
  switch (type) {
    case "message":
      return decodeMessage(item, path, out, w);
    case "reasoning":
      return out.assistant(decodeReasoning(item, path, w));
    case "function_call": {
      const c = parseAt(FunctionCallItemSchema, item, path);
      const name = c.namespace ? flattenNamespaced(c.namespace, c.name) : c.name;
      return out.assistant({
        type: "tool_call",
        id: c.call_id,
        name,
        arguments: c.arguments,
        kind: "function",
        ...(c.id ? { itemId: c.id } : {}),
      });
    }
    case "custom_tool_call": {
      const c = parseAt(CustomToolCallItemSchema, item, path);
      const name = c.namespace ? flattenNamespaced(c.namespace, c.name) : c.name;
      return out.assistant({
        type: "tool_call",
        id: c.call_id,
        name,
        arguments: c.input,
        kind: "custom",
        ...(c.id ? { itemId: c.id } : {}),
      });
    }
    case "local_shell_call": {
      const c = parseAt(LocalShellCallItemSchema, item, path);
      const id = c.call_id ?? c.id;
      if (!id) {
        w.push({ field: path, message: "local_shell_call without call_id or id; dropped." });
        return;
      }
      return out.assistant({
        type: "tool_call",
        id,
        name: LOCAL_SHELL_NAME,
        arguments: localShellArguments(c.action),
        kind: "local_shell",
        ...(c.call_id && c.id ? { itemId: c.id } : {}),
      });
    }
    case "function_call_output":
    case "custom_tool_call_output": {
      const schema = type === "function_call_output"
        ? FunctionCallOutputItemSchema
        : CustomToolCallOutputItemSchema;
      const r = parseAt(schema, item, path);
      const content = decodeParts(r.output, `${path}.output`);
      w.push(...content.warnings);
      return out.tool({
        type: "tool_result",
        toolCallId: r.call_id,
        content: content.value,
        kind: type === "function_call_output" ? "function" : "custom",
      });
    }
    case "local_shell_call_output": {
      const r = parseAt(LocalShellCallOutputItemSchema, item, path);
      const id = r.call_id ?? r.id;
      if (!id) {
        w.push({ field: path, message: "local_shell_call_output without call_id or id; dropped." });
        return;
      }
      return out.tool({
        type: "tool_result",
        toolCallId: id,
        content: [{ type: "text", text: r.output }],
        kind: "local_shell",
      });
    }
    case "item_reference":
      w.push({
        field: path,
        message: "item_reference points at an item stored by OpenAI; gatehouse keeps no such " +
          "store, so it was dropped. Send the item itself instead.",
      });
      return;
    default:
      w.push({
        field: `${path}.type`,
        message: `input item type "${String(type)}" has no counterpart in gatehouse; dropped.`,
      });
  }
}

/** Decodes `input` (a string is one user message). */
export function decodeInput(
  input: string | unknown[] | null | undefined,
  path = "input",
): Converted<CoreMessage[]> {
  if (input === undefined || input === null) return { value: [], warnings: [] };
  if (typeof input === "string") {
    return { value: [{ role: "user", content: [{ type: "text", text: input }] }], warnings: [] };
  }
  const out = new MessageList();
  const warnings: Warning[] = [];
  input.forEach((item, i) => decodeItem(item, `${path}.${i}`, out, warnings));
  return { value: out.messages, warnings };
}
