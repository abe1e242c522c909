/**
 * Responses `tools` and `tool_choice` → core tools and tool choice. Function and custom tools
 * map one to one; `namespace` groups are flattened (see namespaces.ts); `local_shell` becomes
 * its function stand-in (see local_shell.ts); hosted tools (web_search, file_search,
 * code_interpreter, image_generation, mcp, computer use, tool_search, shell, apply_patch, ...)
 * become OpenAI built-ins, forwarded to OpenAI and dropped with a warning elsewhere.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreTool, CustomTool, FunctionTool, ToolChoice } from "../../core/request.ts";
import { localShellFunctionTool } from "./local_shell.ts";
import { flattenNamespaced } from "./namespaces.ts";
import { CustomToolSchema, FunctionToolSchema, NamespaceToolSchema, parseAt } from "./schemas.ts";

function functionTool(raw: unknown, path: string, namespace?: string): FunctionTool {
  const t = parseAt(FunctionToolSchema, raw, path);
  const tool: FunctionTool = {
    type: "function",
    name: namespace ? flattenNamespaced(namespace, t.name) : t.name,
    parameters: t.parameters ?? { type: "object", properties: {} },
  };
  if (t.description) tool.description = t.description;
  if (typeof t.strict === "boolean") tool.strict = t.strict;
  if (namespace) tool.namespace = namespace;
  return tool;
}

function customTool(raw: unknown, path: string, namespace?: string): CustomTool {
  const t = parseAt(CustomToolSchema, raw, path);
  const tool: CustomTool = {
    type: "custom",
    name: namespace ? flattenNamespaced(namespace, t.name) : t.name,
  };
  if (t.description) tool.description = t.description;
  if (t.format) tool.format = t.format;
  if (namespace) tool.namespace = namespace;
  return tool;
}

function namespaceTools(raw: unknown, path: string, w: Warning[]): CoreTool[] {
  const ns = parseAt(NamespaceToolSchema, raw, path);
  if (ns.description) {
    w.push({
      field: `${path}.description`,
      message: `namespace descriptions have no counterpart: the tools of "${ns.name}" are ` +
        "sent as flat tools named <namespace>__<tool> with their own descriptions.",
    });
  }
  const out: CoreTool[] = [];
  ns.tools.forEach((child, i) => {
    const childPath = `${path}.tools.${i}`;
    if (child.type === "function") out.push(functionTool(child, childPath, ns.name));
    else if (child.type === "custom") out.push(customTool(child, childPath, ns.name));
    else {
      w.push({
        field: `${childPath}.type`,
        message: `tool type "${child.type}" inside a namespace has no counterpart; dropped.`,
      });
    }
  });
  return out;
}

/** Decodes the tool list. */
export function decodeTools(
  tools: Array<{ type: string; [key: string]: unknown }> | null | undefined,
): Converted<CoreTool[]> {
  const warnings: Warning[] = [];
  const value: CoreTool[] = [];
  (tools ?? []).forEach((raw, i) => {
    const path = `tools.${i}`;
    switch (raw.type) {
      case "function":
        value.push(functionTool(raw, path));
        break;
      case "custom":
        value.push(customTool(raw, path));
        break;
      case "namespace":
        value.push(...namespaceTools(raw, path, warnings));
        break;
      case "local_shell":
        value.push(localShellFunctionTool());
        break;
      default:
        value.push({ type: "builtin", vendor: "openai", name: raw.type, raw: { ...raw } });
    }
  });
  const seen = new Set<string>();
  for (const tool of value) {
    if (seen.has(tool.name)) {
      warnings.push({
        field: "tools",
        message: `two tools are named "${tool.name}" (a namespace tool flattened onto another ` +
          "tool's name); calls of that name go to the first one.",
      });
    }
    seen.add(tool.name);
  }
  return { value, warnings };
}

type RawChoice =
  | "auto"
  | "none"
  | "required"
  | { type: string; name?: string | null; mode?: string | null; [k: string]: unknown };

/** Decodes `tool_choice`. `allowed_tools` keeps its mode with a warning (core has no subset). */
export function decodeToolChoice(
  choice: RawChoice | null | undefined,
): Converted<ToolChoice | undefined> {
  if (choice === null || choice === undefined) return { value: undefined, warnings: [] };
  if (typeof choice === "string") return { value: { type: choice }, warnings: [] };
  switch (choice.type) {
    case "function":
    case "custom": {
      const namespace = typeof choice.namespace === "string" ? choice.namespace : undefined;
      const name = choice.name ?? "";
      return {
        value: { type: "tool", name: namespace ? flattenNamespaced(namespace, name) : name },
        warnings: [],
      };
    }
    case "allowed_tools":
      return {
        value: { type: choice.mode === "required" ? "required" : "auto" },
        warnings: [{
          field: "tool_choice.tools",
          message: "allowed_tools subsets have no counterpart; every declared tool stays " +
            `available with mode "${choice.mode ?? "auto"}".`,
        }],
      };
    case "mcp":
      return {
        value: { type: "required" },
        warnings: [{
          field: "tool_choice",
          message: "an MCP server choice has no counterpart; the model must call some tool.",
        }],
      };
    default:
      return { value: { type: "tool", name: choice.type }, warnings: [] };
  }
}
