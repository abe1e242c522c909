/**
 * The one stream stage between an upstream body and the client: reads the upstream, runs a step
 * over the bytes (a passthrough tap, or a whole fused translation), and closes the request's
 * meter when the body ends, fails, or the client goes away.
 * @module
 */
import type { Sink, Step } from "../core/step.ts";
import type { Meter } from "./ledger.ts";

/** Chunks queued ahead of a slow client: enough that reading the upstream overlaps with writing
 * to the client, few enough that a slow client holds the upstream back (memory stays bounded). */
const READ_AHEAD_CHUNKS = 8;

/** The size of the buffer a body is read into. */
const READ_BUFFER_BYTES = 64 * 1024;

type ChunkSource = () => Promise<Uint8Array | null>;

/** Reads a byte stream into one reused buffer (a fetch body allocates a fresh 64 KiB buffer per
 * read otherwise, which showed up as garbage-collection time), handing out exact-size copies;
 * other streams are read as they are. */
function chunkSource(body: ReadableStream<Uint8Array>): {
  next: ChunkSource;
  cancel(reason?: unknown): Promise<void>;
} {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = body.getReader({ mode: "byob" });
  } catch {
    const reader = body.getReader();
    return {
      next: () => reader.read().then((r) => r.done ? null : r.value),
      cancel: (reason) => reader.cancel(reason),
    };
  }
  let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
  return {
    next: () =>
      byob.read(new Uint8Array(buffer)).then(({ done, value }) => {
        if (done || !value) return null;
        buffer = value.buffer as ArrayBuffer;
        return value.slice();
      }),
    cancel: (reason) => byob.cancel(reason),
  };
}

/** Wraps a response body: `step` (if any) runs over its bytes, and `meter` closes with `status`
 * at the end, or as aborted when the body fails or the client cancels (the cancel reaches the
 * upstream body, closing its connection: the provider stops generating). */
export function meteredBody(
  body: ReadableStream<Uint8Array>,
  meter: Meter,
  status: number,
  step?: Step<Uint8Array, Uint8Array>,
): ReadableStream<Uint8Array> {
  const source = chunkSource(body);
  let target: ReadableStreamDefaultController<Uint8Array> | null = null;
  // One sink for the step's whole life (steps may keep the sink they were started with).
  const sink: Sink<Uint8Array> = { enqueue: (bytes) => target!.enqueue(bytes) };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      target = controller;
      step?.start?.(sink);
    },
    async pull(controller) {
      try {
        // Read on while the client's queue has room: one pull call serves several chunks.
        do {
          const chunk = await source.next();
          if (chunk === null) {
            step?.flush?.(sink);
            meter.close(status);
            controller.close();
            return;
          }
          if (step) step.transform(chunk, sink);
          else sink.enqueue(chunk);
        } while ((controller.desiredSize ?? 0) > 0);
      } catch (error) {
        meter.close(status, true);
        controller.error(error);
      }
    },
    async cancel(reason) {
      meter.close(status, true);
      await source.cancel(reason).catch(() => {});
    },
  }, { highWaterMark: READ_AHEAD_CHUNKS });
}
