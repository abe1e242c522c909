/**
 * Responses `namespace` tools (Codex sends each MCP server as one `{type: "namespace", name,
 * tools}`) are flattened into ordinary tools named `<namespace>__<child>` so every upstream can
 * call them; calls come back to the client as `{namespace, name}`, which is what Codex routes on
 * (a bare flattened name fails with "unsupported call"). The reverse map is rebuilt from each
 * request's own tool list, so it is deterministic per turn.
 * @module
 */
import type { CoreRequest } from "../../core/request.ts";

/** The separator between namespace and child, unless the namespace already ends with it
 * (Codex names MCP namespaces `mcp__server__`). */
const SEPARATOR = "__";

/** The flat name of tool `name` inside `namespace`. */
export function flattenNamespaced(namespace: string, name: string): string {
  return namespace.endsWith(SEPARATOR) ? namespace + name : namespace + SEPARATOR + name;
}

/** A tool name as a Responses client knows it. */
export interface NamespacedName {
  name: string;
  namespace?: string;
}

/** Maps flat core tool names back to `{namespace, name}` for the tools `request` declared in a
 * namespace; other names pass through unchanged. */
export function namespaceRestorer(request: CoreRequest): (flat: string) => NamespacedName {
  const map = new Map<string, NamespacedName>();
  for (const tool of request.tools) {
    if (tool.type === "builtin" || tool.namespace === undefined) continue;
    const prefix = flattenNamespaced(tool.namespace, "");
    if (!tool.name.startsWith(prefix)) continue;
    map.set(tool.name, { namespace: tool.namespace, name: tool.name.slice(prefix.length) });
  }
  return (flat) => map.get(flat) ?? { name: flat };
}
