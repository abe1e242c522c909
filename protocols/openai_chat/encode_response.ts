/**
 * Client face: the core response → a `chat.completion` body.
 * @module
 */
import type { ToolCallPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreResponse } from "../../core/response.ts";
import type { EncodeContext } from "../codec.ts";
import { type ChatFinishReason, toFinishReason } from "./map_stop_reason.ts";
import { type ChatUsageOut, toChatUsage } from "./map_usage.ts";

/** A tool call as a chat client reads it: custom tools in their own form. */
export type ChatToolCallOutWire =
  | { id: string; type: "function"; function: { name: string; arguments: string } }
  | { id: string; type: "custom"; custom: { name: string; input: string } };

/** The non-streamed body the gateway returns. */
export interface ChatCompletionOut {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: [{
    index: 0;
    message: {
      role: "assistant";
      content: string | null;
      refusal: string | null;
      tool_calls?: ChatToolCallOutWire[];
      reasoning_content?: string;
    };
    logprobs: null;
    finish_reason: ChatFinishReason;
  }];
  usage: ChatUsageOut;
}

/** The chat id for a core response id (`chatcmpl-` prefixed, as clients expect). */
export function chatCompletionId(id: string): string {
  return id.startsWith("chatcmpl-") ? id : `chatcmpl-${id}`;
}

/** One core tool call in chat form. Local shell calls become function calls. */
export function toolCallOut(part: ToolCallPart): ChatToolCallOutWire {
  return part.kind === "custom"
    ? { id: part.id, type: "custom", custom: { name: part.name, input: part.arguments } }
    : { id: part.id, type: "function", function: { name: part.name, arguments: part.arguments } };
}

/** Encodes a response. Text parts are joined by blank lines into `content` (null when only
 * tool calls); readable reasoning goes to `reasoning_content`, the field DeepSeek-style
 * clients read; a refusal's explanation goes to `refusal`. Opaque reasoning tokens, the
 * matched stop sequence and a refusal's category have no chat field. */
export function encodeResponse(
  response: CoreResponse,
  ctx: EncodeContext,
): Converted<ChatCompletionOut> {
  const warnings: Warning[] = [];
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls: ChatToolCallOutWire[] = [];
  response.content.forEach((part, i) => {
    switch (part.type) {
      case "text":
        text.push(part.text);
        return;
      case "reasoning":
        if (part.text) reasoning.push(part.text);
        if (part.token) {
          warnings.push({
            field: `content.${i}.token`,
            message: "Chat Completions cannot carry opaque reasoning; it is dropped.",
          });
        }
        return;
      case "tool_call":
        calls.push(toolCallOut(part));
        return;
    }
  });
  if (response.stopSequence !== undefined) {
    warnings.push({
      field: "stopSequence",
      message: "Chat Completions does not say which stop sequence matched.",
    });
  }
  if (response.stopDetails?.category !== undefined) {
    warnings.push({
      field: "stopDetails.category",
      message: "Chat Completions has no field for the category of a refusal; it is dropped.",
    });
  }
  const joined = text.join("\n\n");
  const message: ChatCompletionOut["choices"][0]["message"] = {
    role: "assistant",
    content: joined || (calls.length > 0 ? null : ""),
    refusal: response.stopDetails?.explanation ?? null,
  };
  if (calls.length > 0) message.tool_calls = calls;
  if (reasoning.length > 0) message.reasoning_content = reasoning.join("\n\n");
  return {
    value: {
      id: chatCompletionId(response.id),
      object: "chat.completion",
      created: response.created,
      model: ctx.clientModel,
      choices: [{
        index: 0,
        message,
        logprobs: null,
        finish_reason: toFinishReason(response.stopReason),
      }],
      usage: toChatUsage(response.usage),
    },
    warnings,
  };
}
