/**
 * A core response → the Messages `message` body a client receives.
 * @module
 */
import type { ReasoningPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreResponse } from "../../core/response.ts";
import { assertNever } from "../../core/stream.ts";
import type { EncodeContext } from "../codec.ts";
import { stopReasonToAnthropic } from "./map_stop_reason.ts";
import { usageToAnthropic } from "./map_usage.ts";
import { stopDetailsToAnthropic } from "./stop_details.ts";
import { toolInputOf } from "./tool_input.ts";
import type { WireAssistantBlock, WireMessageBody } from "./wire.ts";

/** A message id as Anthropic writes them: the core id when it already is one, else prefixed. */
export function anthropicMessageId(id: string): string {
  return id.startsWith("msg_") ? id : `msg_${id}`;
}

/** True when the client asked Anthropic to omit thinking text (`display: "omitted"`). */
export function thinkingOmitted(ctx: EncodeContext): boolean {
  return ctx.request.reasoning?.display === "omitted";
}

/** A reasoning part → a thinking or redacted_thinking block, or null when nothing is left to
 * show. Only Anthropic signatures can go back to an Anthropic client; another vendor's token
 * is dropped (with a warning) and the block keeps `signature: ""`. */
export function reasoningBlock(
  part: ReasoningPart,
  omitted: boolean,
  path: string,
  warnings: Warning[],
): WireAssistantBlock | null {
  const token = part.token?.vendor === "anthropic" ? part.token.value : undefined;
  if (part.token !== undefined && token === undefined) {
    warnings.push({
      field: `${path}.token`,
      message: `a reasoning token issued by ${part.token.vendor} cannot be returned to an ` +
        "Anthropic client; dropped",
    });
  }
  if (part.redacted && token !== undefined) return { type: "redacted_thinking", data: token };
  const thinking = omitted ? "" : part.text;
  if (thinking === "" && token === undefined) return null;
  return { type: "thinking", thinking, signature: token ?? "" };
}

/** Encodes the non-streamed response body. */
export function encodeResponse(
  response: CoreResponse,
  ctx: EncodeContext,
): Converted<WireMessageBody> {
  const warnings: Warning[] = [];
  const content: WireAssistantBlock[] = [];
  const omitted = thinkingOmitted(ctx);
  response.content.forEach((part, i) => {
    const path = `content.${i}`;
    switch (part.type) {
      case "text":
        content.push({ type: "text", text: part.text });
        break;
      case "reasoning": {
        const block = reasoningBlock(part, omitted, path, warnings);
        if (block !== null) content.push(block);
        break;
      }
      case "tool_call": {
        const { input, problem } = toolInputOf(part);
        if (problem !== undefined) warnings.push({ field: `${path}.arguments`, message: problem });
        content.push({ type: "tool_use", id: part.id, name: part.name, input });
        break;
      }
      default:
        assertNever(part, "assistant part");
    }
  });
  return {
    value: {
      id: anthropicMessageId(response.id),
      type: "message",
      role: "assistant",
      model: ctx.clientModel,
      content,
      stop_reason: stopReasonToAnthropic(response.stopReason),
      stop_sequence: response.stopSequence ?? null,
      stop_details: stopDetailsToAnthropic(response.stopDetails),
      usage: usageToAnthropic(response.usage),
    },
    warnings,
  };
}
