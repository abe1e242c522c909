/**
 * The one stream stage between an upstream body and the client: reads the upstream (straight
 * from its connection when the HTTP/1.1 client answered), runs a step over the bytes (a
 * passthrough tap, or a whole fused translation), and tells the request's lifecycle when the
 * first bytes went out and how the body ended: to its end, cancelled by the client, or failed in
 * our own code. (An upstream that breaks off is an end: it is read through `upstreamStream`, so the
 * steps write the protocol's terminal error first.)
 * @module
 */
import { concatBytes } from "../core/bytes.ts";
import { type ChunkReader, streamReader } from "../core/chunk_reader.ts";
import type { Sink, Step } from "../core/step.ts";
import type { BodyEnd } from "./lifecycle.ts";

/** What the body stage reports to: the request's lifecycle. */
export interface BodyWatch {
  firstByte(): void;
  bodyEnded(how: BodyEnd, status: number): void;
}

/** What a step hands the client: bytes forwarded as they came, or event text written here. */
export type BodyChunk = Uint8Array | string;

const encoder = new TextEncoder();

/** A chunk's bytes: text encoded as UTF-8. */
function toBytes(chunk: BodyChunk): Uint8Array {
  return typeof chunk === "string" ? encoder.encode(chunk) : chunk;
}

/** A batch's bytes. Text of a batch is joined and encoded once: encoding each event on its own
 * and joining the bytes costs several times more. */
function bytesOf(parts: BodyChunk[]): Uint8Array {
  if (parts.length === 1) return toBytes(parts[0]!);
  if (parts.every((part) => typeof part === "string")) return encoder.encode(parts.join(""));
  return concatBytes(parts.map(toBytes));
}

/** Chunks queued ahead of a slow client: enough that reading the upstream overlaps with writing
 * to the client, few enough that a slow client holds the upstream back (memory stays bounded). */
const READ_AHEAD_CHUNKS = 8;

/** Wraps a response body sent with `status`: `step` (if any) runs over its bytes, and `watch`
 * hears of the first bytes and of the end (a client's cancel reaches the upstream body, closing
 * its connection: the provider stops generating). */
export function meteredBody(
  body: ReadableStream<BodyChunk> | ChunkReader<BodyChunk>,
  watch: BodyWatch,
  status: number,
): ReadableStream<Uint8Array>;
export function meteredBody(
  body: ReadableStream<Uint8Array> | ChunkReader<Uint8Array>,
  watch: BodyWatch,
  status: number,
  step: Step<Uint8Array, BodyChunk>,
): ReadableStream<Uint8Array>;
export function meteredBody(
  body: ReadableStream<BodyChunk> | ChunkReader<BodyChunk>,
  watch: BodyWatch,
  status: number,
  step?: Step<Uint8Array, BodyChunk>,
): ReadableStream<Uint8Array> {
  // An upstream body read straight from its connection comes as a reader: no stream between.
  const reader = body instanceof ReadableStream ? streamReader(body) : body;
  let target: ReadableStreamDefaultController<Uint8Array> | null = null;
  // What one upstream chunk produced leaves as one chunk: a translation emits several events per
  // upstream event, and every chunk handed to the server is a write of its own. One array and
  // one sink for the stream's whole life (steps may keep the sink they were started with): a
  // chunk allocates nothing here.
  const parts: BodyChunk[] = [];
  let collecting = false;
  const sink: Sink<BodyChunk> = {
    enqueue: (chunk) => {
      if (collecting) parts.push(chunk);
      else target!.enqueue(toBytes(chunk));
    },
  };
  /** Runs the step over `chunk` (null: its flush at the end) and hands what it emitted to the
   * client as one chunk (what it emitted before throwing, too). */
  const stepOver = (step: Step<Uint8Array, BodyChunk>, chunk: Uint8Array | null) => {
    collecting = true;
    try {
      if (chunk !== null) step.transform(chunk, sink);
      else step.flush?.(sink);
    } finally {
      collecting = false;
      if (parts.length > 0) {
        const bytes = bytesOf(parts);
        parts.length = 0;
        if (bytes.length > 0) target!.enqueue(bytes);
      }
    }
  };
  // Set when the client cancels: a read already under way then finds the stream closed, which is
  // the client's leaving, not a failure of ours.
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      target = controller;
      step?.start?.(sink);
    },
    // One pull reads on for as long as the client's queue has room: for a client keeping up,
    // one suspended frame for the whole stream, resumed once per chunk.
    async pull(controller) {
      try {
        do {
          const chunk = await reader.read();
          if (cancelled) return;
          if (chunk === null) {
            if (step) stepOver(step, null);
            watch.bodyEnded("end", status);
            controller.close();
            return;
          }
          watch.firstByte();
          // Without a step the body is bytes or text already; a step reads bytes.
          if (step) stepOver(step, chunk as Uint8Array);
          else controller.enqueue(toBytes(chunk));
        } while ((controller.desiredSize ?? 0) > 0);
      } catch (error) {
        if (cancelled) return;
        watch.bodyEnded("failed", status);
        controller.error(error);
        // The upstream is not read again: release its connection (the provider stops, too).
        reader.cancel(error).catch(() => {});
      }
    },
    async cancel(reason) {
      cancelled = true;
      watch.bodyEnded("cancel", status);
      await reader.cancel(reason).catch(() => {});
    },
  }, { highWaterMark: READ_AHEAD_CHUNKS });
}
