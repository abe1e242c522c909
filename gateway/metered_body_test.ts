import assert from "node:assert/strict";
import type { Step } from "../core/step.ts";
import { streamReader } from "../core/chunk_reader.ts";
import { idleCutoff } from "./idle_cutoff.ts";
import type { BodyEnd } from "./lifecycle.ts";
import { type BodyChunk, type BodyWatch, meteredBody } from "./metered_body.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A watch that records what the body stage tells the lifecycle. */
function watched(): BodyWatch & { ends: Array<[BodyEnd, number]>; firstBytes: number } {
  const watch = {
    ends: [] as Array<[BodyEnd, number]>,
    firstBytes: 0,
    firstByte: () => void watch.firstBytes++,
    bodyEnded: (how: BodyEnd, status: number) => void watch.ends.push([how, status]),
  };
  return watch;
}

/** A step that turns each chunk into three events, and adds one at the end. */
const threeEach: Step<Uint8Array, Uint8Array> = {
  transform(chunk, out) {
    const text = decoder.decode(chunk);
    for (const n of [1, 2, 3]) out.enqueue(encoder.encode(`${text}${n};`));
  },
  flush(out) {
    out.enqueue(encoder.encode("end;"));
    out.enqueue(encoder.encode("done;"));
  },
};

Deno.test("meteredBody hands out what one upstream chunk produced as one chunk", async () => {
  {
    const upstream = ReadableStream.from(["a", "b"].map((text) => encoder.encode(text)));
    const chunks = await Array.fromAsync(
      meteredBody(upstream, watched(), 200, threeEach),
      (chunk) => decoder.decode(chunk),
    );
    assert.deepEqual(chunks, ["a1;a2;a3;", "b1;b2;b3;", "end;done;"]);
  }
});

Deno.test("meteredBody encodes a batch of event text once, in order with any bytes beside it", async () => {
  {
    // Text (what the client encoders write), bytes (what the tap forwards), and both at once.
    const mixed: Step<Uint8Array, BodyChunk> = {
      transform(chunk, out) {
        const text = decoder.decode(chunk);
        if (text === "bytes") out.enqueue(chunk);
        out.enqueue(`${text}:é;`);
        out.enqueue("");
        out.enqueue(`${text}:2;`);
      },
    };
    const upstream = ReadableStream.from(["text", "bytes"].map((text) => encoder.encode(text)));
    const chunks = await Array.fromAsync(meteredBody(upstream, watched(), 200, mixed));
    assert.ok(chunks.every((chunk) => chunk instanceof Uint8Array));
    assert.deepEqual(chunks.map((chunk) => decoder.decode(chunk)), [
      "text:é;text:2;",
      "bytesbytes:é;bytes:2;",
    ]);
  }
});

Deno.test("meteredBody without a step sends text chunks as UTF-8", async () => {
  {
    const events = ReadableStream.from<BodyChunk>(["data: ü\n\n", encoder.encode("data: 2\n\n")]);
    const chunks = await Array.fromAsync(meteredBody(events, watched(), 200));
    assert.deepEqual(chunks.map((chunk) => decoder.decode(chunk)), ["data: ü\n\n", "data: 2\n\n"]);
  }
});

Deno.test("meteredBody without a step forwards chunks as they are", async () => {
  {
    const upstream = ReadableStream.from(["x", "y"].map((text) => encoder.encode(text)));
    const chunks = await Array.fromAsync(
      meteredBody(upstream, watched(), 200),
      (chunk) => decoder.decode(chunk),
    );
    assert.deepEqual(chunks, ["x", "y"]);
  }
});

Deno.test("a step that throws errors the body and cancels the upstream (its socket closes)", async () => {
  {
    const cancelled = Promise.withResolvers<unknown>();
    const upstream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encoder.encode("chunk"));
      },
      cancel(reason) {
        cancelled.resolve(reason);
      },
    });
    const failing: Step<Uint8Array, Uint8Array> = {
      transform() {
        throw new Error("malformed provider event");
      },
    };
    const watch = watched();
    const body = meteredBody(upstream, watch, 200, failing);
    await assert.rejects(body.getReader().read(), /malformed provider event/);
    assert.match(String(await cancelled.promise), /malformed provider event/);
    assert.deepEqual(watch.ends, [["failed", 200]]);
  }
});

Deno.test("meteredBody tells the watch of the first bytes and of the end, once", async () => {
  const watch = watched();
  const upstream = ReadableStream.from(["a", "b"].map((text) => encoder.encode(text)));
  await Array.fromAsync(meteredBody(upstream, watch, 200));
  assert.ok(watch.firstBytes >= 1);
  assert.deepEqual(watch.ends, [["end", 200]]);
});

Deno.test("a client's cancel is told as cancel and reaches the upstream", async () => {
  const watch = watched();
  const cancelled = Promise.withResolvers<unknown>();
  const upstream = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(encoder.encode("x")),
    cancel: (reason) => cancelled.resolve(reason),
  });
  const reader = meteredBody(upstream, watch, 200).getReader();
  await reader.read();
  await reader.cancel("client left");
  assert.equal(await cancelled.promise, "client left");
  assert.deepEqual(watch.ends, [["cancel", 200]]);
});

Deno.test("an upstream that breaks off ends the body through the step's flush", async () => {
  const watch = watched();
  const upstream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("a"));
      setTimeout(() => controller.error(new Error("connection reset")), 5);
    },
  });
  const flushing: Step<Uint8Array, string> = {
    transform: (chunk, out) => out.enqueue(decoder.decode(chunk)),
    flush: (out) => out.enqueue("[terminal error]"),
  };
  const reader = idleCutoff(streamReader(upstream), 60_000, () => {});
  const chunks = await Array.fromAsync(meteredBody(reader, watch, 200, flushing));
  assert.deepEqual(chunks.map((chunk) => decoder.decode(chunk)), ["a", "[terminal error]"]);
  assert.deepEqual(watch.ends, [["end", 200]]);
});
