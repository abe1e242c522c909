/**
 * One content block of an upstream Messages stream → core stream parts: its start (with any
 * content it opened with), its deltas, and its stop. Used by `decodeStreamStep`, which numbers
 * the blocks and keeps them by their upstream index.
 * @module
 */
import type { Sink } from "../../core/step.ts";
import type { ToolCallPart } from "../../core/content.ts";
import type { StreamPart } from "../../core/stream.ts";
import { toolArgumentsOf } from "./tool_input.ts";
import type { upstreamToolResolver } from "./upstream_tools.ts";

type Json = Record<string, unknown>;

/** A block being read, under its core index. */
export type Block =
  | { kind: "text"; index: number }
  | { kind: "reasoning"; index: number; redacted: boolean }
  | { kind: "tool"; index: number; toolKind: ToolCallPart["kind"]; args: string; start: unknown };

type Out = Sink<StreamPart>;

const str = (value: unknown): string => typeof value === "string" ? value : "";

/** Opens `block` (a `content_block_start`'s `content_block`) as core block `index`: emits its
 * start and the content it came with, and returns it. Null for a block core skips (server tool
 * blocks and unknown types): it takes no index. */
export function startBlock(
  out: Out,
  index: number,
  block: Json,
  resolve: ReturnType<typeof upstreamToolResolver>,
): Block | null {
  switch (block.type) {
    case "text": {
      out.enqueue({ type: "text_start", index });
      const text = str(block.text);
      if (text !== "") out.enqueue({ type: "text_delta", index, text });
      return { kind: "text", index };
    }
    case "thinking": {
      out.enqueue({ type: "reasoning_start", index });
      const text = str(block.thinking);
      if (text !== "") out.enqueue({ type: "reasoning_delta", index, text });
      const signature = str(block.signature);
      if (signature !== "") {
        out.enqueue({
          type: "reasoning_token",
          index,
          token: { vendor: "anthropic", value: signature },
        });
      }
      return { kind: "reasoning", index, redacted: false };
    }
    case "redacted_thinking":
      out.enqueue({ type: "reasoning_start", index });
      out.enqueue({
        type: "reasoning_token",
        index,
        token: { vendor: "anthropic", value: str(block.data) },
      });
      return { kind: "reasoning", index, redacted: true };
    case "tool_use": {
      const { name, kind } = resolve(str(block.name));
      out.enqueue({ type: "tool_call_start", index, id: str(block.id), name, kind });
      return { kind: "tool", index, toolKind: kind, args: "", start: block.input };
    }
    default:
      return null;
  }
}

/** One `content_block_delta`'s `delta` for `block`; a custom tool's input is only buffered. */
export function deltaBlock(out: Out, block: Block, delta: Json): void {
  switch (delta.type) {
    case "text_delta":
      if (block.kind === "text" && str(delta.text) !== "") {
        out.enqueue({ type: "text_delta", index: block.index, text: str(delta.text) });
      }
      break;
    case "thinking_delta":
      if (block.kind === "reasoning" && str(delta.thinking) !== "") {
        out.enqueue({ type: "reasoning_delta", index: block.index, text: str(delta.thinking) });
      }
      break;
    case "signature_delta":
      if (block.kind === "reasoning" && str(delta.signature) !== "") {
        out.enqueue({
          type: "reasoning_token",
          index: block.index,
          token: { vendor: "anthropic", value: str(delta.signature) },
        });
      }
      break;
    case "input_json_delta": {
      const json = str(delta.partial_json);
      if (block.kind !== "tool" || json === "") break;
      block.args += json;
      if (block.toolKind !== "custom") {
        out.enqueue({ type: "tool_call_delta", index: block.index, delta: json });
      }
      break;
    }
      // citations_delta and future delta types carry nothing core can hold.
  }
}

/** Ends `block`: a tool's arguments not yet sent (`{}` for a tool that got none, a custom
 * tool's unwrapped input) go out before its end. */
export function stopBlock(out: Out, block: Block): void {
  switch (block.kind) {
    case "text":
      out.enqueue({ type: "text_end", index: block.index });
      break;
    case "reasoning":
      out.enqueue(
        block.redacted
          ? { type: "reasoning_end", index: block.index, redacted: true }
          : { type: "reasoning_end", index: block.index },
      );
      break;
    case "tool": {
      let tail: string | null = null;
      if (block.toolKind === "custom") {
        let input: unknown = block.start;
        try {
          if (block.args !== "") input = JSON.parse(block.args);
        } catch {
          input = { input: block.args };
        }
        tail = toolArgumentsOf(input, "custom");
      } else if (block.args === "") {
        tail = toolArgumentsOf(block.start, "function");
      }
      if (tail !== null && tail !== "") {
        out.enqueue({ type: "tool_call_delta", index: block.index, delta: tail });
      }
      out.enqueue({ type: "tool_call_end", index: block.index });
      break;
    }
  }
}
