/**
 * Folds stream parts into the response they describe: for keeping a streamed answer (Responses
 * chains) without holding the raw stream.
 * @module
 */
import type { AssistantPart, ReasoningPart, ToolCallPart } from "./content.ts";
import { type CoreResponse, emptyUsage } from "./response.ts";
import { assertNever, type StreamPart } from "./stream.ts";

/** A reducer over stream parts. `result()` is null until a `finish` part arrived. */
export interface Collector {
  add(part: StreamPart): void;
  result(): CoreResponse | null;
}

/** A new collector. */
export function collectParts(): Collector {
  const blocks = new Map<number, AssistantPart>();
  let response: CoreResponse | null = null;
  let head = { id: "", model: "", created: 0 };
  return {
    add(part) {
      switch (part.type) {
        case "start":
          head = { id: part.id, model: part.model, created: part.created };
          return;
        case "text_start":
          blocks.set(part.index, { type: "text", text: "" });
          return;
        case "text_delta": {
          const block = blocks.get(part.index);
          if (block?.type === "text") block.text += part.text;
          return;
        }
        case "reasoning_start":
          blocks.set(part.index, {
            type: "reasoning",
            text: "",
            summary: part.summary,
            itemId: part.itemId,
          });
          return;
        case "reasoning_delta":
        case "reasoning_token": {
          const block = blocks.get(part.index) as ReasoningPart | undefined;
          if (block?.type !== "reasoning") return;
          if (part.type === "reasoning_delta") block.text += part.text;
          else block.token = part.token;
          return;
        }
        case "reasoning_end": {
          const block = blocks.get(part.index);
          if (block?.type === "reasoning" && part.redacted) block.redacted = true;
          return;
        }
        case "tool_call_start":
          blocks.set(part.index, {
            type: "tool_call",
            id: part.id,
            name: part.name,
            kind: part.kind,
            arguments: "",
            itemId: part.itemId,
          });
          return;
        case "tool_call_delta": {
          const block = blocks.get(part.index) as ToolCallPart | undefined;
          if (block?.type === "tool_call") block.arguments += part.delta;
          return;
        }
        case "text_end":
        case "tool_call_end":
        case "error":
          return;
        case "finish":
          response = {
            ...head,
            content: [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block),
            stopReason: part.stopReason,
            stopSequence: part.stopSequence,
            ...(part.stopDetails ? { stopDetails: part.stopDetails } : {}),
            usage: part.usage ?? emptyUsage(),
          };
          return;
        default:
          assertNever(part, "stream part");
      }
    },
    result: () => response,
  };
}
