import assert from "node:assert/strict";
import type { Step } from "../core/step.ts";
import { openSqliteStore } from "../store/sqlite/sqlite_store.ts";
import { Meter } from "./ledger.ts";
import { type BodyChunk, meteredBody } from "./metered_body.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function meterOn(store: ReturnType<typeof openSqliteStore>): Meter {
  return new Meter({
    store,
    keyId: "k",
    model: "m",
    upstream: "u",
    route: "/v1/messages",
    pricing: { input: 0, cached_input: 0, output: 0 },
    stream: true,
    started: Date.now(),
    onError: (error) => {
      throw error;
    },
  });
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
  const store = openSqliteStore(":memory:");
  try {
    const upstream = ReadableStream.from(["a", "b"].map((text) => encoder.encode(text)));
    const chunks = await Array.fromAsync(
      meteredBody(upstream, meterOn(store), 200, threeEach),
      (chunk) => decoder.decode(chunk),
    );
    assert.deepEqual(chunks, ["a1;a2;a3;", "b1;b2;b3;", "end;done;"]);
  } finally {
    await store.close();
  }
});

Deno.test("meteredBody encodes a batch of event text once, in order with any bytes beside it", async () => {
  const store = openSqliteStore(":memory:");
  try {
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
    const chunks = await Array.fromAsync(meteredBody(upstream, meterOn(store), 200, mixed));
    assert.ok(chunks.every((chunk) => chunk instanceof Uint8Array));
    assert.deepEqual(chunks.map((chunk) => decoder.decode(chunk)), [
      "text:é;text:2;",
      "bytesbytes:é;bytes:2;",
    ]);
  } finally {
    await store.close();
  }
});

Deno.test("meteredBody without a step sends text chunks as UTF-8", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const events = ReadableStream.from<BodyChunk>(["data: ü\n\n", encoder.encode("data: 2\n\n")]);
    const chunks = await Array.fromAsync(meteredBody(events, meterOn(store), 200));
    assert.deepEqual(chunks.map((chunk) => decoder.decode(chunk)), ["data: ü\n\n", "data: 2\n\n"]);
  } finally {
    await store.close();
  }
});

Deno.test("meteredBody without a step forwards chunks as they are", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const upstream = ReadableStream.from(["x", "y"].map((text) => encoder.encode(text)));
    const chunks = await Array.fromAsync(
      meteredBody(upstream, meterOn(store), 200),
      (chunk) => decoder.decode(chunk),
    );
    assert.deepEqual(chunks, ["x", "y"]);
  } finally {
    await store.close();
  }
});

Deno.test("a step that throws errors the body and cancels the upstream (its socket closes)", async () => {
  const store = openSqliteStore(":memory:");
  try {
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
    const body = meteredBody(upstream, meterOn(store), 200, failing);
    await assert.rejects(body.getReader().read(), /malformed provider event/);
    assert.match(String(await cancelled.promise), /malformed provider event/);
  } finally {
    await store.close();
  }
});
