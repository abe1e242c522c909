import assert from "node:assert/strict";
import { concatBytes } from "../../core/bytes.ts";
import { loadChunks } from "./fixtures.ts";
import { parseSseText } from "./sse_events.ts";
import {
  frameEvents,
  ODD_SPLIT,
  readAllText,
  sseEventStream,
  sseReplayStream,
  wireOfFolder,
} from "./sse_replay.ts";

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

Deno.test("frameEvents: event+data for Anthropic/Responses, data then [DONE] for chat", () => {
  assert.deepEqual(frameEvents("anthropic", ['{"type":"ping"}']), [
    'event: ping\ndata: {"type":"ping"}\n\n',
  ]);
  assert.deepEqual(frameEvents("chat", ['{"id":"1"}']), [
    'data: {"id":"1"}\n\n',
    "data: [DONE]\n\n",
  ]);
  assert.throws(() => frameEvents("responses", ['{"id":"1"}']), /has no type/);
  assert.equal(wireOfFolder("openai-images"), undefined);
  assert.equal(wireOfFolder("openai-responses"), "responses");
});

Deno.test("sseReplayStream: recorded lines survive framing and parsing unchanged", async () => {
  const lines = await loadChunks("openai-responses", "openai-shell-local-multiturn.1");
  const events = parseSseText(await readAllText(sseReplayStream("responses", lines)));
  assert.deepEqual(events.map((e) => e.data), lines);
  assert.deepEqual(events.map((e) => e.event), lines.map((l) => JSON.parse(l).type));
});

Deno.test("sseReplayStream splitBytes: chunk sizes follow the pattern, bytes are unchanged", async () => {
  const lines = await loadChunks("anthropic-messages", "anthropic-clear-thinking.1");
  const whole = new TextEncoder().encode(frameEvents("anthropic", lines).join(""));
  const chunks = await collect(sseReplayStream("anthropic", lines, { splitBytes: true }));
  const sizes = chunks.map((c) => c.length);
  for (const [i, size] of sizes.slice(0, -1).entries()) {
    assert.equal(size, ODD_SPLIT[i % ODD_SPLIT.length]);
  }
  const joined = concatBytes(chunks);
  assert.equal(joined.length, whole.length);
  assert.deepEqual(joined, whole);
  // "÷" is 2 bytes in UTF-8: with 1-byte pieces in the pattern some chunk boundary splits it.
  const custom = await collect(sseReplayStream("anthropic", lines, { splitBytes: [1] }));
  assert.equal(custom.length, whole.length);
  assert.throws(() => sseReplayStream("chat", [], { splitBytes: [0] }), /positive integers/);
});

Deno.test("sseReplayStream hangAfterChunks: stops after n events until the signal aborts", async () => {
  const controller = new AbortController();
  const stream = sseReplayStream("chat", ['{"a":1}', '{"a":2}'], {
    hangAfterChunks: 1,
    signal: controller.signal,
  });
  const reader = stream.getReader();
  const first = await reader.read();
  assert.equal(new TextDecoder().decode(first.value), 'data: {"a":1}\n\n');
  const pending = reader.read();
  const raced = await Promise.race([
    pending.then(() => "read"),
    new Promise((resolve) => setTimeout(() => resolve("still hanging"), 30)),
  ]);
  assert.equal(raced, "still hanging");
  controller.abort();
  assert.deepEqual(await pending, { done: true, value: undefined });
});

Deno.test("sseReplayStream delayMs: waits before each event; cancel stops the timer", async () => {
  const started = performance.now();
  const text = await readAllText(sseReplayStream("chat", ['{"a":1}'], { delayMs: 15 }));
  assert.ok(performance.now() - started >= 2 * 15 - 2);
  assert.equal(text, 'data: {"a":1}\n\ndata: [DONE]\n\n');
  const slow = sseReplayStream("chat", ['{"a":1}'], { delayMs: 60_000 });
  const reader = slow.getReader();
  const read = reader.read();
  await reader.cancel();
  assert.deepEqual(await read, { done: true, value: undefined });
});

Deno.test("parseSseText: CRLF, comments, multi-line data, missing event name", () => {
  assert.deepEqual(parseSseText(": hi\r\nevent: a\r\ndata: 1\r\ndata: 2\r\n\r\ndata:x\n\n"), [
    { event: "a", data: "1\n2" },
    { data: "x" },
  ]);
});

Deno.test("sseEventStream: a size larger than one event coalesces events and never stalls", async () => {
  const events = ["data: 1\n\n", "data: 2\n\n", "data: 3\n\n", "data: 4\n\n", "data: 5\n\n"];
  const chunks = await collect(sseEventStream(events, { splitBytes: [20], delayMs: 1 }));
  const text = chunks.map((chunk) => new TextDecoder().decode(chunk));
  assert.deepEqual(text, ["data: 1\n\ndata: 2\n\nda", "ta: 3\n\ndata: 4\n\ndata", ": 5\n\n"]);
});
