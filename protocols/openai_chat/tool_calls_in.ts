/**
 * How an upstream chat tool call maps back to the client's tool: full names restored from their
 * shortened form, and calls of custom tools (sent upstream as functions with one string field)
 * unwrapped to their raw input.
 * @module
 */
import { type CoreRequest, CUSTOM_TOOL_INPUT_FIELD } from "../../core/request.ts";
import { toolNameRestorer } from "../tool_names.ts";

/** Per-request view of the tools an upstream may call. */
export interface ToolCallReader {
  /** The client's name for an upstream tool name. */
  restore(upstreamName: string): string;
  /** `custom` when the client declared the (full-named) tool as custom. */
  kindOf(name: string): "function" | "custom";
  /** The raw input of a wrapped custom call; the arguments as sent when they are not the
   * wrapper object (the model ignored the schema), so nothing is lost. */
  unwrapCustom(args: string): string;
}

/** Builds the reader for one request. */
export function toolCallReader(request: CoreRequest): ToolCallReader {
  const restore = toolNameRestorer(request);
  const custom = new Set(request.tools.filter((t) => t.type === "custom").map((t) => t.name));
  return {
    restore,
    kindOf: (name) => (custom.has(name) ? "custom" : "function"),
    unwrapCustom(args) {
      try {
        const parsed: unknown = JSON.parse(args);
        if (parsed !== null && typeof parsed === "object") {
          const input = (parsed as Record<string, unknown>)[CUSTOM_TOOL_INPUT_FIELD];
          if (typeof input === "string") return input;
        }
      } catch {
        // Not JSON: the model wrote the raw input directly.
      }
      return args;
    },
  };
}

/** A deterministic id for a tool call the upstream sent without one. */
export function syntheticCallId(responseId: string, index: number): string {
  const tail = responseId.replace(/[^A-Za-z0-9]/g, "").slice(-12);
  return `call_${tail}_${index}`;
}
