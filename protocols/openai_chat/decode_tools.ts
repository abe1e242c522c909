/**
 * Chat `tools`, `tool_choice` and `response_format` → core.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreTool, ResponseFormat, ToolChoice } from "../../core/request.ts";
import type { ChatCompletionRequest, ChatTool, ChatToolChoice } from "./schemas.ts";

/** The JSON Schema a function without `parameters` takes: no arguments. */
const EMPTY_PARAMETERS = { type: "object", properties: {} };

/** Chat tool definitions → core tools. */
export function decodeTools(tools: ChatTool[]): CoreTool[] {
  return tools.map((tool): CoreTool => {
    if (tool.type === "function") {
      const fn = tool.function;
      return {
        type: "function",
        name: fn.name,
        ...(fn.description === undefined ? {} : { description: fn.description }),
        parameters: fn.parameters ?? EMPTY_PARAMETERS,
        ...(fn.strict == null ? {} : { strict: fn.strict }),
      };
    }
    const custom = tool.custom;
    return {
      type: "custom",
      name: custom.name,
      ...(custom.description === undefined ? {} : { description: custom.description }),
      ...(custom.format === undefined ? {} : { format: custom.format }),
    };
  });
}

/** Chat `tool_choice` → core. `allowed_tools` keeps its mode; the subset it names has no
 * counterpart (every declared tool stays callable), which is reported. */
export function decodeToolChoice(choice: ChatToolChoice): Converted<ToolChoice> {
  if (typeof choice === "string") return { value: { type: choice }, warnings: [] };
  switch (choice.type) {
    case "function":
      return { value: { type: "tool", name: choice.function.name }, warnings: [] };
    case "custom":
      return { value: { type: "tool", name: choice.custom.name }, warnings: [] };
    case "allowed_tools": {
      const warnings: Warning[] = [{
        field: "tool_choice.allowed_tools.tools",
        message: "restricting the call to a subset of tools has no counterpart; " +
          `all declared tools stay available with mode "${choice.allowed_tools.mode}".`,
      }];
      return { value: { type: choice.allowed_tools.mode }, warnings };
    }
  }
}

/** Chat `response_format` → core. */
export function decodeResponseFormat(
  format: NonNullable<ChatCompletionRequest["response_format"]>,
): ResponseFormat {
  switch (format.type) {
    case "text":
    case "json_object":
      return { type: format.type };
    case "json_schema": {
      const spec = format.json_schema;
      return {
        type: "json_schema",
        name: spec.name,
        schema: spec.schema ?? {},
        ...(spec.strict == null ? {} : { strict: spec.strict }),
        ...(spec.description === undefined ? {} : { description: spec.description }),
      };
    }
  }
}
