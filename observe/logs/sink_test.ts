import assert from "node:assert/strict";
import { BufferedSink, FLUSH_CHARS, FLUSH_MS, type SinkTarget } from "./sink.ts";

/** A target that records each write (async and sync) as text. */
function target(): SinkTarget & { writes: string[]; sync: string[] } {
  const decoder = new TextDecoder();
  const writes: string[] = [];
  const sync: string[] = [];
  return {
    writes,
    sync,
    write: (bytes) => {
      writes.push(decoder.decode(bytes));
      return Promise.resolve(bytes.length);
    },
    writeSync: (bytes) => {
      sync.push(decoder.decode(bytes));
      return bytes.length;
    },
  };
}

Deno.test("buffered sink: lines written within a few ms go out in one write, in order", async () => {
  const out = target();
  const sink = new BufferedSink(out);
  sink.write("one");
  sink.write("two");
  sink.write("three");
  assert.deepEqual(out.writes, [], "nothing written synchronously");
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 20));
  await sink.flush();
  assert.deepEqual(out.writes, ["one\ntwo\nthree\n"]);
});

Deno.test("buffered sink: a large buffer is written at once; flush waits for every line", async () => {
  const out = target();
  const sink = new BufferedSink(out);
  const big = "x".repeat(FLUSH_CHARS);
  sink.write(big);
  sink.write("after");
  await sink.flush();
  assert.deepEqual(out.writes, [`${big}\n`, "after\n"]);
});

Deno.test("buffered sink: flushSync writes what is queued at once (an exit)", () => {
  const out = target();
  const sink = new BufferedSink(out);
  sink.write("last words");
  sink.flushSync();
  sink.flushSync();
  assert.deepEqual(out.sync, ["last words\n"]);
  assert.deepEqual(out.writes, []);
});

Deno.test("buffered sink: a partial write is continued; a broken target loses lines quietly", async () => {
  const written: string[] = [];
  const decoder = new TextDecoder();
  const sink = new BufferedSink({
    write: (bytes) => {
      const half = Math.max(1, Math.floor(bytes.length / 2));
      written.push(decoder.decode(bytes.subarray(0, half)));
      return Promise.resolve(half);
    },
    writeSync: () => 0,
  });
  sink.write("abcdef");
  await sink.flush();
  assert.equal(written.join(""), "abcdef\n");
  const broken = new BufferedSink({
    write: () => Promise.reject(new Error("EPIPE")),
    writeSync: () => {
      throw new Error("EPIPE");
    },
  });
  broken.write("gone");
  await broken.flush();
  broken.write("gone too");
  broken.flushSync();
});
