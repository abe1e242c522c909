/**
 * How every streamed upstream body is read, passthrough and translated alike: a body whose
 * connection breaks, or that sends nothing for too long mid-stream (the stream idle timeout),
 * ends early. The steps then write the client protocol's terminal error, as for any stream that
 * breaks off; for silence the lifecycle is told first, records a timeout and names it in that
 * error, and the source is cancelled (the connection closes, the provider stops).
 * @module
 */
import type { ChunkReader } from "../core/chunk_reader.ts";
import { GatewayError, STREAM_IDLE_TIMEOUT } from "../core/errors.ts";
import { isHookable } from "../http1/body_stream.ts";
import { deadline } from "./deadlines.ts";
import type { Lifecycle } from "./lifecycle.ts";

/** The error a stream cut for silence ends with. */
export function streamIdleTimeout(provider: string, ms: number): GatewayError {
  return new GatewayError(
    "timeout",
    504,
    `Provider "${provider}" sent nothing for ${ms / 1000} s mid-stream, so the gateway ended ` +
      "the stream (GATEHOUSE_STREAM_IDLE_TIMEOUT_MS); the response is incomplete. Retry the request.",
    { code: STREAM_IDLE_TIMEOUT },
  );
}

/** `reader` with a failed read taken as the end of the body, and a read that waits more than
 * `ms` ended by `onIdle` and a cancel of the source (whose pending read then settles: a closed
 * connection, a cancelled stream). Only time spent waiting on a read counts: a slow client that
 * holds the body back is not upstream silence. One coarse shared deadline per stream, re-armed
 * only when it fires early, so a chunk costs two timestamps, not a timer of its own. Over the
 * HTTP/1.1 client's body reader it watches each read through the reader's hooks rather than a
 * `then` of its own: one promise less per chunk. */
export function idleCutoff<T>(
  reader: ChunkReader<T>,
  ms: number,
  onIdle: () => void,
  onBreak: (error: unknown) => void = () => {},
): ChunkReader<T> {
  let waitingSince = 0;
  let over = false;
  let disarm = () => {};
  const stop = () => {
    over = true;
    disarm();
  };
  const check = () => {
    if (over) return;
    const waited = waitingSince === 0 ? 0 : Date.now() - waitingSince;
    if (waited < ms) {
      disarm = deadline(ms - waited, check);
      return;
    }
    stop();
    onIdle();
    reader.cancel(new Error("stream idle timeout")).catch(() => {});
  };
  disarm = deadline(ms, check);
  const onChunk = (chunk: T | null): T | null => {
    waitingSince = 0;
    if (chunk === null) stop();
    return over ? null : chunk;
  };
  const onError = (error: unknown): null => {
    // A broken connection ends the body; the steps report the stream incomplete (a whole
    // body's reader, which has no terminal event to miss, is told).
    if (!over) onBreak(error);
    stop();
    reader.cancel().catch(() => {});
    return null;
  };
  const hooked = isHookable(reader);
  if (hooked) reader.hook({ chunk: onChunk, error: onError });
  return {
    // A promise chain, not an async function: one suspended frame less per chunk.
    read: () => {
      if (over) return Promise.resolve(null);
      waitingSince = Date.now();
      let read: Promise<T | null>;
      try {
        read = reader.read();
      } catch (error) {
        return Promise.resolve(onError(error));
      }
      return hooked ? read : read.then(onChunk, onError);
    },
    cancel: (reason) => {
      stop();
      return reader.cancel(reason);
    },
  };
}

/** Every streamed upstream body's reader: ends on a broken connection or on `idleMs` of silence,
 * the silence told to `life` first so the stream's terminal error names it; and when the
 * lifecycle cuts it (a budget watch, a shutdown). */
export function upstreamStream<T>(
  body: ChunkReader<T>,
  life: Lifecycle,
  provider: string,
  idleMs: number,
): ChunkReader<T> {
  const reader = idleCutoff(
    body,
    idleMs,
    () => life.streamEnded(streamIdleTimeout(provider, idleMs)),
  );
  // A budget that ran out, or a shutdown, ends the read (the connection closes: the provider
  // stops).
  life.onCut(() => reader.cancel(new Error("the stream was ended by the gateway")).catch(() => {}));
  return reader;
}
