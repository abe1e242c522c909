/**
 * Reversible tool-name shortening for upstreams with a name-length limit. The short form is
 * deterministic (prefix + hash of the full name), so every turn of a conversation maps the same
 * name the same way, and the reverse map is rebuilt from each request's own tool list.
 * @module
 */
import type { CoreRequest } from "../core/request.ts";

/** OpenAI's and Anthropic's function-name limit. */
export const TOOL_NAME_LIMIT = 64;

/** FNV-1a, 32 bits, as 8 hex digits: short, stable, no async crypto needed. */
function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** The name to send upstream: unchanged when it fits, else a prefix and a hash. */
export function shortenToolName(name: string, limit = TOOL_NAME_LIMIT): string {
  if (name.length <= limit) return name;
  return `${name.slice(0, limit - 9)}_${hash8(name)}`;
}

/** Maps every shortened name used by `request` (tool definitions and history calls) back to
 * its full name. Names that fit are absent: look-ups fall back to the name itself. */
export function toolNameRestorer(
  request: CoreRequest,
  limit = TOOL_NAME_LIMIT,
): (upstreamName: string) => string {
  const map = new Map<string, string>();
  const add = (name: string) => {
    if (name.length > limit) map.set(shortenToolName(name, limit), name);
  };
  for (const tool of request.tools) add(tool.name);
  for (const message of request.messages) {
    if (message.role !== "assistant") continue;
    for (const part of message.content) if (part.type === "tool_call") add(part.name);
  }
  return (upstreamName) => map.get(upstreamName) ?? upstreamName;
}
