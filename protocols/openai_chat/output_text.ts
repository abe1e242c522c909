/**
 * The output text of one raw chat-completion chunk, for metering a passthrough stream against a
 * budget: content, reasoning and tool-call arguments as they are delivered.
 * @module
 */
import type { SseEvent } from "../../sse/parse_sse.ts";

interface ChunkChoice {
  delta?: {
    content?: unknown;
    reasoning_content?: unknown;
    reasoning?: unknown;
    tool_calls?: Array<{ function?: { arguments?: unknown } }>;
  };
}

const text = (value: unknown) => typeof value === "string" ? value : "";

/** The generated text a chunk carries ("" for `[DONE]`, usage chunks and unreadable data). */
export function outputTextOfEvent(event: SseEvent): string {
  if (!event.data.includes('"delta"')) return "";
  let chunk: { choices?: ChunkChoice[] };
  try {
    chunk = JSON.parse(event.data);
  } catch {
    return "";
  }
  let out = "";
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    if (!delta) continue;
    out += text(delta.content) + text(delta.reasoning_content) + text(delta.reasoning);
    for (const call of delta.tool_calls ?? []) out += text(call.function?.arguments);
  }
  return out;
}
