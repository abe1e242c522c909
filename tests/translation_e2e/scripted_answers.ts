/**
 * Provider answers built from a short script, for cases no recorded transcript holds (other stop
 * reasons, prompt-cache counts, several text blocks, parallel calls, echoed tool names). Each
 * builder answers in the form the request asked for: an SSE stream when its body has
 * `stream: true`, else one JSON body. The shapes follow the recorded files of the same wire.
 * @module
 */
import { sseAnswer } from "./helpers.ts";

/** One content block of a scripted answer. */
export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** A scripted Anthropic message. */
export interface AnthropicScript {
  blocks: ScriptBlock[];
  stopReason: string;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens?: number;
    cache_creation_input_tokens?: number;
  };
}

const SIGNATURE = "c2NyaXB0ZWQtc2lnbmF0dXJl";

function wireBlock(block: ScriptBlock): Record<string, unknown> {
  return block.type === "thinking" ? { ...block, signature: SIGNATURE } : block;
}

/** An Anthropic answer to `body` (streamed when it asks for a stream). */
export function anthropicAnswer(body: Record<string, unknown>, script: AnthropicScript): Response {
  const message = {
    id: "msg_01Scripted",
    type: "message",
    role: "assistant",
    model: body.model,
    stop_sequence: null,
  };
  if (body.stream !== true) {
    return Response.json({
      ...message,
      content: script.blocks.map(wireBlock),
      stop_reason: script.stopReason,
      usage: script.usage,
    });
  }
  const events: Array<[string, unknown]> = [[
    "message_start",
    {
      type: "message_start",
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...script.usage, output_tokens: 1 },
      },
    },
  ]];
  const event = (type: string, rest: Record<string, unknown>) =>
    events.push([type, { type, ...rest }]);
  script.blocks.forEach((block, index) => {
    switch (block.type) {
      case "text":
        event("content_block_start", { index, content_block: { type: "text", text: "" } });
        event("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
        break;
      case "thinking":
        event("content_block_start", {
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        });
        event("content_block_delta", {
          index,
          delta: { type: "thinking_delta", thinking: block.thinking },
        });
        event("content_block_delta", {
          index,
          delta: { type: "signature_delta", signature: SIGNATURE },
        });
        break;
      case "tool_use":
        event("content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        });
        event("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        });
        break;
    }
    event("content_block_stop", { index });
  });
  event("message_delta", {
    delta: { stop_reason: script.stopReason, stop_sequence: null },
    usage: script.usage,
  });
  event("message_stop", {});
  return sseAnswer(events);
}

/** A scripted chat completion. */
export interface ChatScript {
  content?: string;
  reasoning?: string;
  calls?: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details?: { cached_tokens: number };
  };
}

/** A chat answer to `body` (streamed when it asks for a stream). */
export function chatAnswer(body: Record<string, unknown>, script: ChatScript): Response {
  const base = { id: "chatcmpl-scripted", created: 1, model: body.model };
  const calls = (script.calls ?? []).map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  if (body.stream !== true) {
    const message: Record<string, unknown> = {
      role: "assistant",
      content: script.content ?? null,
    };
    if (script.reasoning !== undefined) message.reasoning_content = script.reasoning;
    if (calls.length > 0) message.tool_calls = calls;
    return Response.json({
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: script.finishReason }],
      usage: script.usage,
    });
  }
  const chunk = (rest: Record<string, unknown>) => ({
    ...base,
    object: "chat.completion.chunk",
    ...rest,
  });
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
  const events: unknown[] = [delta({ role: "assistant", content: "" })];
  if (script.reasoning !== undefined) events.push(delta({ reasoning_content: script.reasoning }));
  if (script.content !== undefined) events.push(delta({ content: script.content }));
  calls.forEach((call, index) => events.push(delta({ tool_calls: [{ index, ...call }] })));
  events.push(delta({}, script.finishReason));
  events.push(chunk({ choices: [], usage: script.usage }));
  events.push("[DONE]");
  return sseAnswer(events);
}
