/**
 * The output text of raw chat-completion chunks, for metering a passthrough stream against a
 * budget: content, reasoning and tool-call arguments as they are delivered. A run of chunks is
 * scanned ({@link outputTextOfRun}); one parsed chunk is read whole ({@link outputTextOfEvent},
 * for runs the scan gives up on).
 * @module
 */
import type { SseEvent } from "../../sse/parse_sse.ts";
import { type DeltaShape, type RunText, scanDeltas } from "../output_scan.ts";

/** Where a chunk's output text is: `choices[].delta`'s content and reasoning fields, and its
 * tool calls' `function.arguments`. */
const CHUNK_DELTA: DeltaShape = {
  keys: ["content", "reasoning_content", "reasoning"],
  nested: { key: "tool_calls", holds: "arguments" },
};

/** Appends the output text of a run of complete chunks (raw SSE text) to `into`, piece by
 * piece; false when the run must be parsed chunk by chunk instead (`output_scan.ts`). */
export function outputTextOfRun(run: string, into: RunText): boolean {
  return scanDeltas(run, CHUNK_DELTA, into);
}

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
