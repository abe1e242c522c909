import assert from "node:assert/strict";
import { BufferedSink, FLUSH_BYTES, FLUSH_MS, type SinkTarget } from "./sink.ts";

/** A target that records each write as text. */
function target(): SinkTarget & { writes: string[] } {
  const decoder = new TextDecoder();
  const writes: string[] = [];
  return {
    writes,
    writeSync: (bytes) => {
      writes.push(decoder.decode(bytes));
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
  assert.deepEqual(out.writes, [], "nothing written per line");
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS + 20));
  assert.deepEqual(out.writes, ["one\ntwo\nthree\n"]);
  await sink.flush();
  assert.deepEqual(out.writes, ["one\ntwo\nthree\n"], "nothing left to write");
});

Deno.test("buffered sink: a large buffer is written at once; flush writes the rest", async () => {
  const out = target();
  const sink = new BufferedSink(out);
  const big = "x".repeat(FLUSH_BYTES);
  sink.write(big);
  assert.deepEqual(out.writes, [`${big}\n`]);
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
  assert.deepEqual(out.writes, ["last words\n"]);
});

Deno.test("buffered sink: a partial write is continued; a broken target loses lines quietly", () => {
  const written: string[] = [];
  const decoder = new TextDecoder();
  const sink = new BufferedSink({
    writeSync: (bytes) => {
      const half = Math.max(1, Math.floor(bytes.length / 2));
      written.push(decoder.decode(bytes.subarray(0, half)));
      return half;
    },
  });
  sink.write("abcdef");
  sink.flushSync();
  assert.equal(written.join(""), "abcdef\n");
  const broken = new BufferedSink({
    writeSync: () => {
      throw new Error("EPIPE");
    },
  });
  broken.write("gone");
  broken.flushSync();
  broken.write("gone too");
  broken.flushSync();
});

Deno.test("buffered sink: lines that overflow the buffer go out in order, multi-byte ones whole", () => {
  const out = target();
  const sink = new BufferedSink(out);
  // 3,000 lines of 40 bytes (an emoji is 4 bytes and two UTF-16 units): past 64 KiB.
  const lines = Array.from(
    { length: 3000 },
    (_, i) => `${String(i).padStart(4, "0")} ☕ é 😀 ${"x".repeat(22)}`,
  );
  for (const line of lines) sink.write(line);
  sink.flushSync();
  assert.ok(out.writes.length >= 2, "the buffer filled at least once");
  for (const write of out.writes) {
    assert.ok(new TextEncoder().encode(write).length <= FLUSH_BYTES);
    assert.ok(write.endsWith("\n"), "every write ends on a whole line");
  }
  assert.equal(out.writes.join(""), lines.map((line) => `${line}\n`).join(""));
});

Deno.test("buffered sink: a line that leaves no room for its newline waits for the next batch", () => {
  const out = target();
  const sink = new BufferedSink(out);
  sink.write("a".repeat(FLUSH_BYTES - 10));
  sink.write("b".repeat(9)); // 9 bytes fit, its newline does not
  sink.flushSync();
  assert.deepEqual(out.writes, [`${"a".repeat(FLUSH_BYTES - 10)}\n`, `${"b".repeat(9)}\n`]);
});
