import assert from "node:assert/strict";
import { parseSse, type SseEvent } from "./parse_sse.ts";

async function collect(chunks: string[]): Promise<SseEvent[]> {
  const enc = new TextEncoder();
  const source = ReadableStream.from(chunks.map((c) => enc.encode(c)));
  return await Array.fromAsync(source.pipeThrough(parseSse()));
}

Deno.test("parseSse reads named and data-only events split across chunks", async () => {
  const events = await collect([
    "event: message_start\nda",
    'ta: {"a":1}\n\n: comment\n',
    "data: [DONE]\r",
    "\n\r\n",
  ]);
  assert.deepEqual(events, [{ event: "message_start", data: '{"a":1}' }, { data: "[DONE]" }]);
});

Deno.test("parseSse joins multi-line data and flushes a final event without blank line", async () => {
  const events = await collect(["data: a\ndata: b\n\ndata: tail"]);
  assert.deepEqual(events, [{ data: "a\nb" }, { data: "tail" }]);
});
