/**
 * Core tools, tool choice and reasoning → Anthropic `tools`, `tool_choice`, `thinking` and
 * `output_config.effort` for an upstream request.
 * @module
 */
import type { Warning } from "../../core/convert.ts";
import {
  type CoreRequest,
  CUSTOM_TOOL_INPUT_FIELD,
  type ReasoningEffort,
} from "../../core/request.ts";
import { assertNever } from "../../core/stream.ts";
import { shortenToolName } from "../tool_names.ts";

/** Anthropic's smallest thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

/** Core tools → Anthropic tools. Custom (free-form) tools become a function tool with one
 * string property; OpenAI builtins are dropped; Anthropic builtins go as they came. */
export function encodeTools(
  tools: CoreRequest["tools"],
  warnings: Warning[],
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  tools.forEach((tool, i) => {
    const path = `tools.${i}`;
    switch (tool.type) {
      case "function": {
        const schema = tool.parameters.type === undefined
          ? { type: "object", properties: {}, ...tool.parameters }
          : tool.parameters;
        const wire: Record<string, unknown> = {
          name: shortenToolName(tool.name),
          input_schema: schema,
        };
        if (tool.description !== undefined) wire.description = tool.description;
        if (tool.strict !== undefined) wire.strict = tool.strict;
        out.push(wire);
        break;
      }
      case "custom": {
        if (tool.format !== undefined) {
          warnings.push({
            field: `${path}.format`,
            message: "Anthropic has no grammar-constrained tools; format ignored",
          });
        }
        const wire: Record<string, unknown> = {
          name: shortenToolName(tool.name),
          input_schema: {
            type: "object",
            properties: { [CUSTOM_TOOL_INPUT_FIELD]: { type: "string" } },
            required: [CUSTOM_TOOL_INPUT_FIELD],
          },
        };
        if (tool.description !== undefined) wire.description = tool.description;
        out.push(wire);
        break;
      }
      case "builtin":
        if (tool.vendor === "anthropic") out.push(tool.raw);
        else {
          warnings.push({
            field: path,
            message:
              `${tool.vendor} builtin tool ${tool.name} does not exist on Anthropic; dropped`,
          });
        }
        break;
      default:
        assertNever(tool, "tool");
    }
  });
  return out;
}

/** Core tool choice and parallel switch → `tool_choice`. Omitted when no tool is left
 * (Anthropic rejects a tool_choice without tools). */
export function encodeToolChoice(
  request: CoreRequest,
  toolCount: number,
  warnings: Warning[],
): Record<string, unknown> | undefined {
  const choice = request.toolChoice;
  const serial = request.parallelToolCalls === false;
  if (choice === undefined && !serial) return undefined;
  if (toolCount === 0) {
    warnings.push({
      field: choice !== undefined ? "toolChoice" : "parallelToolCalls",
      message: "no tool is sent to Anthropic; tool choice ignored",
    });
    return undefined;
  }
  const parallel = serial ? { disable_parallel_tool_use: true } : {};
  switch (choice?.type) {
    case undefined:
    case "auto":
      return { type: "auto", ...parallel };
    case "required":
      return { type: "any", ...parallel };
    case "none":
      return { type: "none" };
    case "tool":
      return { type: "tool", name: shortenToolName(choice.name), ...parallel };
    default:
      return assertNever(choice, "tool choice");
  }
}

/** Core effort → Anthropic effort. `none` is handled by the caller (thinking disabled);
 * `minimal` has no Anthropic level and becomes `low` with a warning. */
function anthropicEffort(effort: Exclude<ReasoningEffort, "none">, warnings: Warning[]): string {
  if (effort === "minimal") {
    warnings.push({
      field: "reasoning.effort",
      message: "Anthropic has no minimal effort; sent low",
    });
    return "low";
  }
  return effort;
}

/** Core reasoning → `thinking` and `output_config.effort`. A budget wins over adaptive; it must
 * be ≥ 1024 and < max_tokens, so it is raised or lowered (with a warning) to fit, and thinking
 * is disabled (with a warning) when max_tokens leaves no room for the minimum. */
export function encodeReasoning(
  request: CoreRequest,
  maxTokens: number,
  warnings: Warning[],
): { thinking?: Record<string, unknown>; effort?: string } {
  const reasoning = request.reasoning;
  if (reasoning === undefined) return {};
  if (reasoning.summary !== undefined) {
    warnings.push({
      field: "reasoning.summary",
      message: "Anthropic returns thinking as it is, with no summary setting; ignored",
    });
  }
  if (reasoning.mode === "disabled" || reasoning.effort === "none") {
    return { thinking: { type: "disabled" } };
  }
  const effort = reasoning.effort === undefined
    ? undefined
    : anthropicEffort(reasoning.effort, warnings);
  const display = reasoning.display !== undefined ? { display: reasoning.display } : {};
  const withEffort = effort !== undefined ? { effort } : {};
  if (reasoning.budgetTokens === undefined) {
    return { thinking: { type: "adaptive", ...display }, ...withEffort };
  }
  let budget = reasoning.budgetTokens;
  if (budget < MIN_THINKING_BUDGET) {
    warnings.push({
      field: "reasoning.budgetTokens",
      message:
        `Anthropic's smallest thinking budget is ${MIN_THINKING_BUDGET}; raised from ${budget}`,
    });
    budget = MIN_THINKING_BUDGET;
  }
  if (budget >= maxTokens) {
    if (maxTokens - 1 < MIN_THINKING_BUDGET) {
      warnings.push({
        field: "reasoning.budgetTokens",
        message: `max_tokens ${maxTokens} leaves no room for a ${MIN_THINKING_BUDGET}-token ` +
          "thinking budget; thinking disabled",
      });
      return { thinking: { type: "disabled" }, ...withEffort };
    }
    warnings.push({
      field: "reasoning.budgetTokens",
      message:
        `the thinking budget must be below max_tokens (${maxTokens}); lowered from ${budget}`,
    });
    budget = maxTokens - 1;
  }
  return { thinking: { type: "enabled", budget_tokens: budget, ...display }, ...withEffort };
}
