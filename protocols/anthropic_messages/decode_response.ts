/**
 * An upstream Anthropic `message` body → the core response.
 * @module
 */
import { safeParseChecked } from "../../core/schema_check.ts";
import type { AssistantPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreRequest } from "../../core/request.ts";
import type { CoreResponse } from "../../core/response.ts";
import { upstreamError } from "../upstream_error.ts";
import { stopReasonFromAnthropic } from "./map_stop_reason.ts";
import { usageFromAnthropic } from "./map_usage.ts";
import { MessageResponseSchema } from "./schemas.ts";
import { stopDetailsFromAnthropic } from "./stop_details.ts";
import { toolArgumentsOf } from "./tool_input.ts";
import { upstreamToolResolver } from "./upstream_tools.ts";

type Block = { type: string } & Record<string, unknown>;

const str = (value: unknown): string => typeof value === "string" ? value : "";

/** Decodes a message body. A body that is not a message is a provider fault (502). */
export function decodeResponse(
  body: unknown,
  request: CoreRequest,
  provider: string,
): Converted<CoreResponse> {
  const parsed = safeParseChecked(MessageResponseSchema, body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw upstreamError({
      provider,
      status: 502,
      message: `the response is not an Anthropic message (${
        issue?.path.join(".")
      }: ${issue?.message})`,
      headers: new Headers(),
    });
  }
  const message = parsed.data;
  const warnings: Warning[] = [];
  const resolve = upstreamToolResolver(request);
  const content: AssistantPart[] = [];
  message.content.forEach((raw, i) => {
    const block = raw as Block;
    switch (block.type) {
      case "text":
        content.push({ type: "text", text: str(block.text) });
        if (Array.isArray(block.citations) && block.citations.length > 0) {
          warnings.push({
            field: `content.${i}.citations`,
            message: "citations have no counterpart; dropped",
          });
        }
        break;
      case "thinking": {
        const part: AssistantPart = { type: "reasoning", text: str(block.thinking) };
        const signature = str(block.signature);
        if (signature !== "") part.token = { vendor: "anthropic", value: signature };
        content.push(part);
        break;
      }
      case "redacted_thinking":
        content.push({
          type: "reasoning",
          text: "",
          redacted: true,
          token: { vendor: "anthropic", value: str(block.data) },
        });
        break;
      case "tool_use": {
        const { name, kind } = resolve(str(block.name));
        content.push({
          type: "tool_call",
          id: str(block.id),
          name,
          arguments: toolArgumentsOf(block.input, kind),
          kind,
        });
        break;
      }
      default:
        // Server tool blocks (server_tool_use, web_search_tool_result, ...) ran on Anthropic's
        // side; other protocols have no way to show them.
        warnings.push({
          field: `content.${i}`,
          message: `a ${block.type} block has no counterpart; dropped`,
        });
    }
  });
  let stopReason = stopReasonFromAnthropic(message.stop_reason);
  if (stopReason === undefined) {
    warnings.push({
      field: "stop_reason",
      message: `unknown stop_reason ${JSON.stringify(message.stop_reason)}; reported as end_turn`,
    });
    stopReason = "end_turn";
  }
  const response: CoreResponse = {
    id: message.id,
    model: message.model,
    content,
    stopReason,
    usage: usageFromAnthropic(message.usage),
    created: Math.floor(Date.now() / 1000),
  };
  if (message.stop_sequence != null) response.stopSequence = message.stop_sequence;
  const details = stopDetailsFromAnthropic(message.stop_details);
  warnings.push(...details.warnings);
  if (details.value !== undefined) response.stopDetails = details.value;
  return { value: response, warnings };
}
