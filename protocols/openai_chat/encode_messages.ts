/**
 * Core system text and conversation → chat `messages`.
 * @module
 */
import type {
  AssistantPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
  UserPart,
} from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import { type CoreRequest, CUSTOM_TOOL_INPUT_FIELD } from "../../core/request.ts";
import { shortenToolName } from "../tool_names.ts";
import {
  type ChatPartOut,
  type ChatTarget,
  compactContent,
  encodeUserPart,
} from "./encode_content.ts";

/** A tool call in a chat request's assistant message. */
export interface ChatToolCallIn {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A message of a chat request. */
export type ChatMessageIn =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ChatPartOut[] }
  | {
    role: "assistant";
    content: string | null;
    tool_calls?: ChatToolCallIn[];
    reasoning_content?: string;
  }
  | { role: "tool"; tool_call_id: string; content: string };

const joinText = (parts: TextPart[]) => parts.map((part) => part.text).join("\n\n");

/** Chat upstreams get custom tools as functions with one string field (see encode_tools.ts),
 * so a custom call's raw input is wrapped in that field. An empty function argument string
 * becomes `{}`: vLLM and others parse it as JSON. */
function encodeToolCall(call: ToolCallPart): ChatToolCallIn {
  const args = call.kind === "custom"
    ? JSON.stringify({ [CUSTOM_TOOL_INPUT_FIELD]: call.arguments })
    : call.arguments.trim() === ""
    ? "{}"
    : call.arguments;
  return {
    id: call.id,
    type: "function",
    function: { name: shortenToolName(call.name), arguments: args },
  };
}

function encodeAssistant(
  parts: AssistantPart[],
  path: string,
  target: ChatTarget,
  warnings: Warning[],
): ChatMessageIn | null {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const calls: ChatToolCallIn[] = [];
  parts.forEach((part, j) => {
    switch (part.type) {
      case "text":
        texts.push(part.text);
        return;
      case "tool_call":
        calls.push(encodeToolCall(part));
        return;
      case "reasoning":
        if (part.token) {
          warnings.push({
            field: `${path}.content.${j}`,
            message: `a reasoning token issued by ${part.token.vendor} cannot be sent to a chat ` +
              "upstream; the opaque reasoning is dropped.",
          });
        }
        if (part.text) reasoning.push(part.text);
        return;
    }
  });
  const text = texts.join("\n\n");
  if (!text && calls.length === 0) return null;
  const message: ChatMessageIn = { role: "assistant", content: text || null };
  if (calls.length > 0) message.tool_calls = calls;
  // DeepSeek rejects a tool-call turn whose reasoning is not replayed; other compat servers
  // ignore the field. OpenAI itself takes no reasoning in chat, so readable reasoning is
  // dropped there (it is model output, not user content).
  if (target.compat && reasoning.length > 0) message.reasoning_content = reasoning.join("\n\n");
  return message;
}

function encodeToolResults(
  results: ToolResultPart[],
  path: string,
  target: ChatTarget,
  warnings: Warning[],
): ChatMessageIn[] {
  const out: ChatMessageIn[] = [];
  const media: ChatPartOut[] = [];
  results.forEach((result, j) => {
    const where = `${path}.content.${j}`;
    const texts: string[] = [];
    const moved: ChatPartOut[] = [];
    result.content.forEach((part, k) => {
      const encoded = encodeUserPart(part, `${where}.content.${k}`, target, warnings);
      if (encoded.type === "text") texts.push(encoded.text);
      else moved.push(encoded);
    });
    if (result.isError) {
      warnings.push({
        field: `${where}.isError`,
        message: "chat tool messages have no error flag; the result is sent as plain content.",
      });
    }
    if (moved.length > 0) {
      warnings.push({
        field: `${where}.content`,
        message: "chat tool messages carry text only; images and files of the result are sent " +
          "in a user message after the tool messages.",
      });
      media.push({ type: "text", text: `Attachments of tool result ${result.toolCallId}:` });
      media.push(...moved);
    }
    out.push({ role: "tool", tool_call_id: result.toolCallId, content: texts.join("\n\n") });
  });
  if (media.length > 0) out.push({ role: "user", content: media });
  return out;
}

function countCacheMarkers(request: CoreRequest): number {
  let count = request.system.filter((part) => part.cacheControl).length;
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === "text" && part.cacheControl) count++;
    }
  }
  return count;
}

/** Encodes the system text and conversation. Leading system text becomes one `system` message
 * (joined by blank lines; compat servers take string content only); system messages inside the
 * conversation stay in place as `system` (OpenAI also accepts it for `developer`). */
export function encodeMessages(
  request: CoreRequest,
  target: ChatTarget,
): Converted<ChatMessageIn[]> {
  const warnings: Warning[] = [];
  const out: ChatMessageIn[] = [];
  if (request.system.length > 0) out.push({ role: "system", content: joinText(request.system) });
  request.messages.forEach((message, i) => {
    const path = `messages.${i}`;
    switch (message.role) {
      case "system":
        out.push({ role: "system", content: joinText(message.content) });
        return;
      case "user": {
        const parts = message.content.map((part: UserPart, j) =>
          encodeUserPart(part, `${path}.content.${j}`, target, warnings)
        );
        out.push({ role: "user", content: compactContent(parts) });
        return;
      }
      case "assistant": {
        const encoded = encodeAssistant(message.content, path, target, warnings);
        if (encoded) out.push(encoded);
        return;
      }
      case "tool":
        out.push(...encodeToolResults(message.content, path, target, warnings));
        return;
    }
  });
  const markers = countCacheMarkers(request);
  if (markers > 0) {
    warnings.push({
      field: "cache_control",
      message: `${markers} prompt-cache marker(s) dropped: chat upstreams cache prompts ` +
        "automatically.",
    });
  }
  return { value: out, warnings };
}
