import assert from "node:assert/strict";
import { sseTapStep } from "./sse_tap.ts";
import { stepStream } from "../core/step.ts";
import type { SseEvent } from "../sse/parse_sse.ts";
import type { BodyChunk } from "./metered_body.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** What the tap sent, as text: forwarded bytes are decoded, written text taken as it is. */
async function textOf(out: ReadableStream<BodyChunk>): Promise<string> {
  const chunks = await Array.fromAsync(out);
  return chunks.map((c) => typeof c === "string" ? c : dec.decode(c)).join("");
}

async function run(chunks: string[], keep?: (e: SseEvent) => boolean) {
  const seen: SseEvent[] = [];
  const out = ReadableStream.from(chunks.map((c) => enc.encode(c))).pipeThrough(
    stepStream(sseTapStep({ observe: (e) => seen.push(e), keep })),
  );
  const text = await textOf(out);
  return { seen, text };
}

Deno.test("sseTapStep forwards bytes unchanged and observes events split across chunks", async () => {
  const input = ['event: a\ndata: {"x"', ":1}\n\nevent: b\r\ndata: 2\r\n\r\n", "data: tail"];
  const { seen, text } = await run(input);
  assert.equal(text, input.join(""));
  assert.deepEqual(seen, [{ event: "a", data: '{"x":1}' }, { event: "b", data: "2" }, {
    data: "tail",
  }]);
});

Deno.test("sseTapStep cuts rejected events by byte range and keeps the rest verbatim", async () => {
  const input = ["data: 1\n\ndata: drop", "\n\ndata: 3\n\n", "data: [DONE]\n\n"];
  const { seen, text } = await run(input, (e) => e.data !== "drop");
  assert.equal(seen.length, 4);
  assert.equal(text, "data: 1\n\ndata: 3\n\ndata: [DONE]\n\n");
});

Deno.test("sseTapStep with mustContain skips chunks without it but sees events split across them", async () => {
  const seen: SseEvent[] = [];
  const input = ['data: {"a":1}\n\ndata: {"us', 'age":{"x":1}}\n\n', 'data: {"b":2}\n\n'];
  const out = ReadableStream.from(input.map((c) => enc.encode(c))).pipeThrough(
    stepStream(sseTapStep({ observe: (e) => seen.push(e), mustContain: '"usage"' })),
  );
  const text = await textOf(out);
  assert.equal(text, input.join(""));
  assert.ok(seen.some((e) => e.data === '{"usage":{"x":1}}'));
});
