/**
 * A GPT quirk: instead of separate calls, the model sometimes calls a tool nobody declared,
 * `parallel` (or `multi_tool_use.parallel`), whose arguments list the real calls
 * (`{"tool_uses": [{"recipient_name": "functions.weather", "parameters": {...}}]}`). Clients
 * would reject the unknown tool, so the wrapper is expanded into the declared calls, with ids
 * derived from the wrapper's call id.
 * @module
 */
import type { CoreRequest } from "../../core/request.ts";

const WRAPPER_NAMES = new Set(["parallel", "multi_tool_use.parallel"]);

/** True when `name` is the wrapper and the request declared no tool of that name. */
export function isParallelWrapper(name: string, request: CoreRequest): boolean {
  return WRAPPER_NAMES.has(name) && !request.tools.some((t) => t.name === name);
}

/** One call inside the wrapper. */
export interface WrappedCall {
  id: string;
  name: string;
  arguments: string;
}

/** The calls inside the wrapper's arguments, or null when they are not the wrapper shape. */
export function expandParallelWrapper(callId: string, args: string): WrappedCall[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return null;
  }
  const uses = (parsed as { tool_uses?: unknown } | null)?.tool_uses;
  if (!Array.isArray(uses) || uses.length === 0) return null;
  const calls: WrappedCall[] = [];
  for (const [i, use] of uses.entries()) {
    const u = use as { recipient_name?: unknown; parameters?: unknown } | null;
    if (typeof u?.recipient_name !== "string") return null;
    calls.push({
      id: `${callId}_${i}`,
      name: u.recipient_name.replace(/^functions\./, ""),
      arguments: JSON.stringify(u.parameters ?? {}),
    });
  }
  return calls;
}
