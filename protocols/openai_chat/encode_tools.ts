/**
 * Core tools, tool choice and response format → chat request fields.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import {
  type CoreTool,
  CUSTOM_TOOL_INPUT_FIELD,
  type CustomTool,
  type ResponseFormat,
  type ToolChoice,
} from "../../core/request.ts";
import { shortenToolName } from "../tool_names.ts";

/** A function tool of a chat request. */
export interface ChatFunctionToolOut {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters: Record<string, unknown>;
    strict?: boolean;
  };
}

/** `tool_choice` of a chat request. */
export type ChatToolChoiceOut =
  | "auto"
  | "none"
  | "required"
  | { type: "function"; function: { name: string } };

/** `response_format` of a chat request. */
export type ChatResponseFormatOut =
  | { type: "text" }
  | { type: "json_object" }
  | {
    type: "json_schema";
    json_schema: {
      name: string;
      schema: Record<string, unknown>;
      strict?: boolean;
      description?: string;
    };
  };

/** What the single string field of a wrapped custom tool says about its input. */
export function customInputDescription(format: CustomTool["format"]): string {
  if (format?.type === "grammar") {
    const syntax = typeof format.syntax === "string" ? format.syntax : "the given";
    const definition = typeof format.definition === "string" ? format.definition : "";
    return `The raw tool input. It must match this ${syntax} grammar:\n${definition}`;
  }
  return "The raw tool input, as free-form text.";
}

/** Chat upstreams (compat servers know no other kind) get a custom tool as a function whose one
 * string field carries the raw input; decoders unwrap it again. */
function wrapCustom(tool: CustomTool): ChatFunctionToolOut {
  return {
    type: "function",
    function: {
      name: shortenToolName(tool.name),
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: {
        type: "object",
        properties: {
          [CUSTOM_TOOL_INPUT_FIELD]: {
            type: "string",
            description: customInputDescription(tool.format),
          },
        },
        required: [CUSTOM_TOOL_INPUT_FIELD],
        additionalProperties: false,
      },
    },
  };
}

/** Encodes tool definitions; vendor-hosted tools are dropped with a warning. */
export function encodeTools(tools: CoreTool[]): Converted<ChatFunctionToolOut[]> {
  const warnings: Warning[] = [];
  const out: ChatFunctionToolOut[] = [];
  tools.forEach((tool, i) => {
    switch (tool.type) {
      case "function":
        out.push({
          type: "function",
          function: {
            name: shortenToolName(tool.name),
            ...(tool.description === undefined ? {} : { description: tool.description }),
            parameters: tool.parameters,
            ...(tool.strict === undefined ? {} : { strict: tool.strict }),
          },
        });
        return;
      case "custom":
        out.push(wrapCustom(tool));
        return;
      case "builtin":
        warnings.push({
          field: `tools.${i}`,
          message: `the ${tool.vendor} hosted tool "${tool.name}" cannot run behind a chat ` +
            "upstream and is dropped.",
        });
        return;
    }
  });
  return { value: out, warnings };
}

/** Encodes `tool_choice`. */
export function encodeToolChoice(choice: ToolChoice): ChatToolChoiceOut {
  switch (choice.type) {
    case "auto":
    case "none":
    case "required":
      return choice.type;
    case "tool":
      return { type: "function", function: { name: shortenToolName(choice.name) } };
  }
}

/** Encodes `response_format`. */
export function encodeResponseFormat(format: ResponseFormat): ChatResponseFormatOut {
  switch (format.type) {
    case "text":
    case "json_object":
      return { type: format.type };
    case "json_schema":
      return {
        type: "json_schema",
        json_schema: {
          name: format.name,
          schema: format.schema,
          ...(format.strict === undefined ? {} : { strict: format.strict }),
          ...(format.description === undefined ? {} : { description: format.description }),
        },
      };
  }
}
