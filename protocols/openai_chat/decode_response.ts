/**
 * Upstream face: a non-streamed Chat Completions body → the core response.
 * @module
 */
import { safeParseChecked } from "../../core/schema_check.ts";
import type { AssistantPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import { GatewayError } from "../../core/errors.ts";
import type { CoreRequest } from "../../core/request.ts";
import { type CoreResponse, emptyUsage } from "../../core/response.ts";
import { fromFinishReason } from "./map_stop_reason.ts";
import { fromChatUsage } from "./map_usage.ts";
import { ChatCompletionResponseSchema, contentText, reasoningText } from "./response_schemas.ts";
import { syntheticCallId, toolCallReader } from "./tool_calls_in.ts";

/** Decodes the first choice: reasoning, then text, then tool calls; a `refusal` becomes the
 * stop details' explanation (with stop reason `refusal`). Throws a 502 for a body that is not
 * a chat completion. */
export function decodeResponse(
  body: unknown,
  request: CoreRequest,
  provider: string,
): Converted<CoreResponse> {
  const parsed = safeParseChecked(ChatCompletionResponseSchema, body);
  const choice = parsed.success ? parsed.data.choices[0] : undefined;
  if (!parsed.success || !choice) {
    throw new GatewayError(
      "upstream",
      502,
      `Provider "${provider}" returned a body that is not a chat completion with a choice.`,
      { code: "upstream_invalid_response" },
    );
  }
  const data = parsed.data;
  const warnings: Warning[] = [];
  if (data.choices.length > 1) {
    warnings.push({ field: "choices", message: "only the first choice is kept." });
  }
  const id = data.id ?? `chatcmpl-${crypto.randomUUID()}`;
  const message = choice.message;
  const content: AssistantPart[] = [];
  const reasoning = reasoningText(message);
  if (reasoning) content.push({ type: "reasoning", text: reasoning });
  const text = contentText(message.content);
  if (text) content.push({ type: "text", text });

  const reader = toolCallReader(request);
  const calls = message.tool_calls ?? [];
  calls.forEach((call, i) => {
    const name = reader.restore(call.function?.name ?? call.custom?.name ?? "");
    const kind = call.type === "custom" ? "custom" : reader.kindOf(name);
    const raw = call.function?.arguments ?? call.custom?.input ?? "";
    content.push({
      type: "tool_call",
      id: call.id || syntheticCallId(id, i),
      name,
      arguments: kind === "custom" && call.type !== "custom" ? reader.unwrapCustom(raw) : raw,
      kind,
    });
  });

  const value: CoreResponse = {
    id,
    model: data.model ?? request.model,
    content,
    stopReason: fromFinishReason({
      finishReason: choice.finish_reason,
      refused: Boolean(message.refusal),
      hasToolCalls: calls.length > 0,
    }),
    usage: data.usage ? fromChatUsage(data.usage) : emptyUsage(),
    created: data.created ?? Math.floor(Date.now() / 1000),
  };
  if (message.refusal) value.stopDetails = { explanation: message.refusal };
  return { value, warnings };
}
