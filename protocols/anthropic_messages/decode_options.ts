/**
 * The option fields of a Messages request → core: tools, tool_choice, thinking with
 * `output_config.effort`, and the structured-output format.
 * @module
 */
import type { Warning } from "../../core/convert.ts";
import { invalidRequest } from "../../core/errors.ts";
import type { CoreTool, ReasoningConfig, ResponseFormat, ToolChoice } from "../../core/request.ts";
import type { MessagesRequest } from "./schemas.ts";

/** Fields of a custom tool that core carries. */
const CUSTOM_TOOL_FIELDS = new Set(["type", "name", "description", "input_schema", "strict"]);

/** Name core uses for an Anthropic output format, which has none. */
export const OUTPUT_FORMAT_NAME = "output";

/** `tools` → core tools. A tool without `type` (or `custom`) is a function tool; a typed one
 * (`web_search_20250305`, `bash_20250124`, `text_editor_20250728`, ...) is an Anthropic builtin
 * kept raw for an Anthropic upstream. */
export function decodeTools(tools: MessagesRequest["tools"], warnings: Warning[]): CoreTool[] {
  if (tools === undefined) return [];
  return tools.map((tool, i): CoreTool => {
    const path = `tools.${i}`;
    if (tool.type != null && tool.type !== "custom") {
      return { type: "builtin", vendor: "anthropic", name: tool.name, raw: { ...tool } };
    }
    if (tool.input_schema === undefined) {
      throw invalidRequest(
        `Invalid request: ${path}.input_schema: a custom tool needs an input_schema`,
        `${path}.input_schema`,
      );
    }
    for (const key of Object.keys(tool)) {
      if (!CUSTOM_TOOL_FIELDS.has(key) && tool[key] != null) {
        warnings.push({
          field: `${path}.${key}`,
          message: `tool field ${key} has no counterpart; ignored`,
        });
      }
    }
    const out: CoreTool = { type: "function", name: tool.name, parameters: tool.input_schema };
    if (tool.description !== undefined) out.description = tool.description;
    if (tool.strict !== undefined) out.strict = tool.strict;
    return out;
  });
}

/** `tool_choice` → core choice and the parallel-calls switch. */
export function decodeToolChoice(
  choice: MessagesRequest["tool_choice"],
): { toolChoice?: ToolChoice; parallelToolCalls?: boolean } {
  if (choice === undefined) return {};
  const parallel =
    "disable_parallel_tool_use" in choice && choice.disable_parallel_tool_use === true
      ? { parallelToolCalls: false }
      : {};
  switch (choice.type) {
    case "auto":
      return { toolChoice: { type: "auto" }, ...parallel };
    case "any":
      return { toolChoice: { type: "required" }, ...parallel };
    case "none":
      return { toolChoice: { type: "none" } };
    case "tool":
      return { toolChoice: { type: "tool", name: choice.name }, ...parallel };
  }
}

/** `thinking` and `output_config.effort` → core reasoning. Effort without `thinking` means the
 * model decides how much to think at that effort (adaptive). */
export function decodeReasoning(
  request: MessagesRequest,
  warnings: Warning[],
): ReasoningConfig | undefined {
  const thinking = request.thinking;
  const effort = request.output_config?.effort ?? undefined;
  let out: ReasoningConfig | undefined;
  if (thinking !== undefined) {
    switch (thinking.type) {
      case "enabled":
        out = { mode: "enabled", budgetTokens: thinking.budget_tokens };
        if (thinking.display != null) out.display = thinking.display;
        break;
      case "adaptive":
        out = { mode: "adaptive" };
        if (thinking.display != null) out.display = thinking.display;
        break;
      case "disabled":
        out = { mode: "disabled" };
        break;
      case "between_tools":
        warnings.push({
          field: "thinking.type",
          message: "between_tools thinking has no counterpart; carried as adaptive thinking",
        });
        out = { mode: "adaptive" };
        break;
    }
  }
  if (effort !== undefined) out = { ...(out ?? { mode: "adaptive" }), effort };
  return out;
}

/** `output_config.format` (or the older top-level `output_format`) → core response format. */
export function decodeResponseFormat(
  request: MessagesRequest,
  warnings: Warning[],
): ResponseFormat | undefined {
  const config = request.output_config?.format ?? undefined;
  const legacy = request.output_format ?? undefined;
  if (config !== undefined && legacy !== undefined) {
    warnings.push({
      field: "output_format",
      message: "output_config.format is also set and wins; output_format ignored",
    });
  }
  const format = config ?? legacy;
  if (format === undefined) return undefined;
  return { type: "json_schema", name: OUTPUT_FORMAT_NAME, schema: format.schema };
}

/** Warnings for `output_config` keys besides `effort` and `format`. */
export function warnOutputConfig(request: MessagesRequest, warnings: Warning[]): void {
  const config = request.output_config;
  if (config === undefined) return;
  for (const key of Object.keys(config)) {
    if (key !== "effort" && key !== "format" && config[key] != null) {
      warnings.push({
        field: `output_config.${key}`,
        message: `output_config.${key} has no counterpart; ignored`,
      });
    }
  }
}
