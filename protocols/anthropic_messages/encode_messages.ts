/**
 * Core system prompt and messages → Anthropic `system` and `messages` for an upstream request.
 *
 * - The core system parts and the system messages before the first other turn become the
 *   top-level `system`; later system messages stay `role: "system"` turns in place (the form
 *   Claude Code itself sends).
 * - Tool messages become user turns; consecutive turns of one role are merged, and in a merged
 *   user turn the tool_result blocks come first (Anthropic requires them to lead the turn that
 *   answers a tool_use).
 * - A turn left with no blocks is dropped with a warning (Anthropic rejects empty content).
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreMessage, CoreRequest } from "../../core/request.ts";
import { assertNever } from "../../core/stream.ts";
import {
  documentBlock,
  imageBlock,
  reasoningBlock,
  textBlock,
  toolIdMapper,
  toolResultBlock,
  toolUseBlock,
} from "./encode_parts.ts";
import type {
  WireAssistantBlock,
  WireMessage,
  WireText,
  WireToolResult,
  WireUserBlock,
} from "./wire.ts";

/** A turn under assembly: user turns keep their tool results apart until finished. */
type Turn =
  | { role: "user"; results: WireToolResult[]; blocks: WireUserBlock[]; from: number }
  | { role: "assistant"; blocks: WireAssistantBlock[]; from: number }
  | { role: "system"; blocks: WireText[]; from: number };

/** The last turn when it has `make`'s role (consecutive turns merge), else a new one. */
function reuse<T extends Turn>(turns: Turn[], role: T["role"], make: () => T): T {
  const last = turns.at(-1);
  if (last?.role === role) return last as T;
  const turn = make();
  turns.push(turn);
  return turn;
}

function texts(parts: CoreMessage["content"], path: string, warnings: Warning[]): WireText[] {
  const out: WireText[] = [];
  parts.forEach((part, i) => {
    if (part.type !== "text") return;
    const block = textBlock(part, `${path}.${i}`, warnings);
    if (block !== null) out.push(block);
  });
  return out;
}

/** Encodes `request.system` and `request.messages`. */
export function encodeMessages(
  request: CoreRequest,
): Converted<{ system: WireText[]; messages: WireMessage[] }> {
  const warnings: Warning[] = [];
  const ids = toolIdMapper();
  const system = texts(request.system, "system", warnings);
  const turns: Turn[] = [];

  const userTurn = (from: number) =>
    reuse(turns, "user", () => ({
      role: "user" as const,
      results: [] as WireToolResult[],
      blocks: [] as WireUserBlock[],
      from,
    }));

  let leading = true;
  request.messages.forEach((message, m) => {
    const path = `messages.${m}.content`;
    if (message.role === "system" && leading) {
      system.push(...texts(message.content, path, warnings));
      return;
    }
    leading = false;
    switch (message.role) {
      case "system":
        reuse(turns, "system", () => ({ role: "system", blocks: [] as WireText[], from: m }))
          .blocks.push(...texts(message.content, path, warnings));
        break;
      case "user": {
        const turn = userTurn(m);
        message.content.forEach((part, i) => {
          const at = `${path}.${i}`;
          const block = part.type === "text"
            ? textBlock(part, at, warnings)
            : part.type === "image"
            ? imageBlock(part, at, warnings)
            : documentBlock(part, at, warnings);
          if (block !== null) turn.blocks.push(block);
        });
        break;
      }
      case "tool": {
        const turn = userTurn(m);
        message.content.forEach((part, i) => {
          turn.results.push(
            toolResultBlock(part, ids.result(part.toolCallId), `${path}.${i}`, warnings),
          );
        });
        break;
      }
      case "assistant": {
        const turn = reuse(turns, "assistant", () => ({
          role: "assistant" as const,
          blocks: [] as WireAssistantBlock[],
          from: m,
        }));
        message.content.forEach((part, i) => {
          const at = `${path}.${i}`;
          switch (part.type) {
            case "text": {
              const block = textBlock(part, at, warnings);
              if (block !== null) turn.blocks.push(block);
              break;
            }
            case "reasoning": {
              const block = reasoningBlock(part, at, warnings);
              if (block !== null) turn.blocks.push(block);
              break;
            }
            case "tool_call":
              turn.blocks.push(toolUseBlock(part, ids.call(part.id), at, warnings));
              break;
            default:
              assertNever(part, "assistant part");
          }
        });
        break;
      }
      default:
        assertNever(message, "message");
    }
  });

  const messages: WireMessage[] = [];
  for (const turn of turns) {
    const content = turn.role === "user" ? [...turn.results, ...turn.blocks] : turn.blocks;
    if (content.length === 0) {
      warnings.push({
        field: `messages.${turn.from}`,
        message: `a ${turn.role} turn with no content Anthropic accepts; dropped`,
      });
      continue;
    }
    messages.push({ role: turn.role, content } as WireMessage);
  }
  return { value: { system, messages }, warnings };
}
