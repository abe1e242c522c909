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

Deno.test("parseSse gives the same events for every split point and line ending", async () => {
  const lf = 'event: a\ndata: {"x":1}\n\n: ping\n\ndata: one\ndata: two\n\nevent: b\ndata: end\n\n';
  const expected = [
    { event: "a", data: '{"x":1}' },
    { data: "one\ntwo" },
    { event: "b", data: "end" },
  ];
  for (const text of [lf, lf.replaceAll("\n", "\r\n"), lf.replaceAll("\n", "\r")]) {
    for (let cut = 0; cut <= text.length; cut++) {
      const events = await collect([text.slice(0, cut), text.slice(cut)]);
      assert.deepEqual(events, expected, `split at ${cut} of ${JSON.stringify(text)}`);
    }
  }
  // A stream that switches from \n to \r\n midway.
  assert.deepEqual(await collect(["data: a\n\n", "data: b\r\n\r\n"]), [{ data: "a" }, {
    data: "b",
  }]);
});
