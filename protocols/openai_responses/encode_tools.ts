/**
 * Core tools and tool choice → Responses `tools` and `tool_choice` for an OpenAI upstream.
 * Function tools are sent with `strict: false` unless the client asked for strict (OpenAI
 * defaults to strict, which rejects most schemas written for other vendors). The `local_shell`
 * stand-in goes back to the native tool; Anthropic server tools are dropped with a warning.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreTool, ToolChoice } from "../../core/request.ts";

/** Encodes the tool list (names through `shorten`). */
export function encodeTools(
  tools: CoreTool[],
  shorten: (name: string) => string,
): Converted<Record<string, unknown>[]> {
  const warnings: Warning[] = [];
  const value: Record<string, unknown>[] = [];
  tools.forEach((tool, i) => {
    switch (tool.type) {
      case "function": {
        if (tool.native === "local_shell") {
          value.push({ type: "local_shell" });
          return;
        }
        const out: Record<string, unknown> = {
          type: "function",
          name: shorten(tool.name),
          parameters: tool.parameters,
          strict: tool.strict ?? false,
        };
        if (tool.description) out.description = tool.description;
        value.push(out);
        return;
      }
      case "custom": {
        const out: Record<string, unknown> = { type: "custom", name: shorten(tool.name) };
        if (tool.description) out.description = tool.description;
        if (tool.format) out.format = tool.format;
        value.push(out);
        return;
      }
      case "builtin":
        if (tool.vendor === "openai") value.push(tool.raw);
        else {
          warnings.push({
            field: `tools.${i}`,
            message: `${tool.vendor} server tool "${tool.name}" runs only on ${tool.vendor}; ` +
              "dropped for this OpenAI model.",
          });
        }
        return;
    }
  });
  return { value, warnings };
}

/** Encodes the tool choice; a named tool takes the form its tool type needs. */
export function encodeToolChoice(
  choice: ToolChoice | undefined,
  tools: CoreTool[],
  shorten: (name: string) => string,
): Converted<unknown> {
  if (!choice) return { value: undefined, warnings: [] };
  if (choice.type !== "tool") return { value: choice.type, warnings: [] };
  const tool = tools.find((t) => t.name === choice.name);
  if (tool?.type === "builtin") {
    return { value: { type: tool.raw.type ?? tool.name }, warnings: [] };
  }
  if (tool?.type === "function" && tool.native === "local_shell") {
    return {
      value: "required",
      warnings: [{
        field: "tool_choice",
        message: "OpenAI cannot force local_shell by name; the model must call some tool.",
      }],
    };
  }
  const type = tool?.type === "custom" ? "custom" : "function";
  return { value: { type, name: shorten(choice.name) }, warnings: [] };
}
