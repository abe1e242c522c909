/**
 * Anthropic `system` and `messages` → core system parts and messages. A user turn holding
 * tool results becomes a ToolMessage (plus a UserMessage for its other blocks, order kept); a
 * `role: "system"` message stays a SystemMessage in place.
 * @module
 */
import type { AssistantPart, TextPart, ToolResultPart, UserPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreMessage } from "../../core/request.ts";
import {
  decodeDocumentBlock,
  decodeImageBlock,
  decodeTextBlock,
  decodeToolResultBlock,
} from "./decode_blocks.ts";
import type { MessagesRequest } from "./schemas.ts";
import { RedactedThinkingBlockSchema, ThinkingBlockSchema, ToolUseBlockSchema } from "./schemas.ts";
import { parseAt } from "./validate.ts";

type Block = { type: string };
type Content = string | Block[];

function dropped(path: string, block: Block, role: string): Warning {
  return {
    field: `${path}.type`,
    message: `a ${block.type} block in a ${role} turn has no counterpart; dropped`,
  };
}

/** Text blocks of a system prompt or system message; other blocks are dropped with a warning. */
function systemText(content: Content, path: string, warnings: Warning[]): TextPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  const parts: TextPart[] = [];
  content.forEach((block, i) => {
    const at = `${path}.${i}`;
    if (block.type === "text") parts.push(decodeTextBlock(block, at, warnings));
    else warnings.push(dropped(at, block, "system"));
  });
  return parts;
}

/** Top-level `system` (string or text blocks) → text parts. */
export function decodeSystem(system: MessagesRequest["system"]): Converted<TextPart[]> {
  const warnings: Warning[] = [];
  if (system === undefined) return { value: [], warnings };
  return { value: systemText(system, "system", warnings), warnings };
}

/** A user turn → ToolMessage / UserMessage segments in block order. */
function userTurn(content: Content, path: string, warnings: Warning[]): CoreMessage[] {
  if (typeof content === "string") {
    return [{ role: "user", content: [{ type: "text", text: content }] }];
  }
  const out: CoreMessage[] = [];
  let user: UserPart[] | null = null;
  let tool: ToolResultPart[] | null = null;
  const pushUser = (part: UserPart) => {
    tool = null;
    if (user === null) {
      user = [];
      out.push({ role: "user", content: user });
    }
    user.push(part);
  };
  content.forEach((block, i) => {
    const at = `${path}.${i}`;
    switch (block.type) {
      case "text":
        pushUser(decodeTextBlock(block, at, warnings));
        break;
      case "image":
        pushUser(decodeImageBlock(block, at, warnings));
        break;
      case "document":
        pushUser(decodeDocumentBlock(block, at, warnings));
        break;
      case "tool_result": {
        const part = decodeToolResultBlock(block, at, warnings);
        user = null;
        if (tool === null) {
          tool = [];
          out.push({ role: "tool", content: tool });
        }
        tool.push(part);
        break;
      }
      default:
        warnings.push(dropped(at, block, "user"));
    }
  });
  // An empty block list stays an (empty) user turn rather than vanishing.
  if (out.length === 0) out.push({ role: "user", content: [] });
  return out;
}

function assistantPart(block: Block, path: string, warnings: Warning[]): AssistantPart | null {
  switch (block.type) {
    case "text":
      return decodeTextBlock(block, path, warnings);
    case "thinking": {
      const thinking = parseAt(ThinkingBlockSchema, block, path);
      const part: AssistantPart = { type: "reasoning", text: thinking.thinking };
      if (thinking.signature) part.token = { vendor: "anthropic", value: thinking.signature };
      return part;
    }
    case "redacted_thinking": {
      const redacted = parseAt(RedactedThinkingBlockSchema, block, path);
      return {
        type: "reasoning",
        text: "",
        redacted: true,
        token: { vendor: "anthropic", value: redacted.data },
      };
    }
    case "tool_use": {
      const use = parseAt(ToolUseBlockSchema, block, path);
      if (use.cache_control != null) {
        warnings.push({
          field: `${path}.cache_control`,
          message: "cache_control is kept only on text blocks; ignored on this block",
        });
      }
      return {
        type: "tool_call",
        id: use.id,
        name: use.name,
        arguments: JSON.stringify(use.input),
        kind: "function",
      };
    }
    default:
      // server_tool_use, web_search_tool_result and other server-side blocks: they only make
      // sense to Anthropic, which gets this request by passthrough, never through this path.
      warnings.push(dropped(path, block, "assistant"));
      return null;
  }
}

function assistantTurn(content: Content, path: string, warnings: Warning[]): CoreMessage {
  if (typeof content === "string") {
    return { role: "assistant", content: [{ type: "text", text: content }] };
  }
  const parts: AssistantPart[] = [];
  content.forEach((block, i) => {
    const part = assistantPart(block, `${path}.${i}`, warnings);
    if (part !== null) parts.push(part);
  });
  return { role: "assistant", content: parts };
}

/** `messages` → core messages. */
export function decodeMessages(messages: MessagesRequest["messages"]): Converted<CoreMessage[]> {
  const warnings: Warning[] = [];
  const value: CoreMessage[] = [];
  messages.forEach((message, i) => {
    const path = `messages.${i}.content`;
    const content = message.content as Content;
    switch (message.role) {
      case "user":
        value.push(...userTurn(content, path, warnings));
        break;
      case "assistant":
        value.push(assistantTurn(content, path, warnings));
        break;
      case "system":
        value.push({ role: "system", content: systemText(content, path, warnings) });
        break;
    }
  });
  return { value, warnings };
}
