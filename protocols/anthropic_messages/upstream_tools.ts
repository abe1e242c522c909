/**
 * How a tool name from an Anthropic upstream maps back to the request's tool: its full name
 * (undoing the 64-character shortening) and its kind (a core custom tool travels as a function
 * tool whose input must be unwrapped).
 * @module
 */
import type { ToolCallPart } from "../../core/content.ts";
import type { CoreRequest } from "../../core/request.ts";
import { toolNameRestorer } from "../tool_names.ts";

/** Resolves upstream tool names for one request. */
export function upstreamToolResolver(
  request: CoreRequest,
): (upstreamName: string) => { name: string; kind: ToolCallPart["kind"] } {
  const restore = toolNameRestorer(request);
  const custom = new Set(request.tools.filter((t) => t.type === "custom").map((t) => t.name));
  return (upstreamName) => {
    const name = restore(upstreamName);
    return { name, kind: custom.has(name) ? "custom" : "function" };
  };
}
