/**
 * The stream idle timeout: an upstream body that sends nothing for too long mid-stream is ended
 * by the gateway. Its reader is cancelled (the connection closes, the provider stops) and the
 * body ends early, so the stream steps write the client protocol's terminal error, as for any
 * stream that breaks off; the lifecycle, told first, records the ending as a timeout and names
 * it in that error.
 * @module
 */
import { type ChunkReader, endingOnFailure } from "../core/chunk_reader.ts";
import { GatewayError } from "../core/errors.ts";
import { deadline } from "./deadlines.ts";
import type { Lifecycle } from "./lifecycle.ts";

/** The error a stream cut for silence ends with. */
export function streamIdleTimeout(provider: string, ms: number): GatewayError {
  return new GatewayError(
    "timeout",
    504,
    `Provider "${provider}" sent nothing for ${ms / 1000} s mid-stream, so the gateway ended ` +
      "the stream (GATEHOUSE_STREAM_IDLE_TIMEOUT_MS); the response is incomplete. Retry the request.",
    { code: "stream_idle_timeout" },
  );
}

/** `reader`, ended after `ms` without a chunk: `onIdle` is called, the source cancelled, and the
 * read under way answers the end of the body. One coarse shared deadline per stream, re-armed
 * only when it fires early, so a chunk costs a timestamp, not a timer. */
export function idleCutoff<T>(
  reader: ChunkReader<T>,
  ms: number,
  onIdle: () => void,
): ChunkReader<T> {
  let last = Date.now();
  let over = false;
  const silence = Promise.withResolvers<null>();
  let disarm = () => {};
  const stop = () => {
    over = true;
    disarm();
  };
  const check = () => {
    if (over) return;
    const quiet = Date.now() - last;
    if (quiet < ms) {
      disarm = deadline(ms - quiet, check);
      return;
    }
    over = true;
    onIdle();
    silence.resolve(null);
    reader.cancel(new Error("stream idle timeout")).catch(() => {});
  };
  disarm = deadline(ms, check);
  return {
    read: async () => {
      if (over) return null;
      try {
        const chunk = await Promise.race([reader.read(), silence.promise]);
        last = Date.now();
        if (chunk === null) stop();
        return chunk;
      } catch (error) {
        stop();
        throw error;
      }
    },
    cancel: (reason) => {
      stop();
      return reader.cancel(reason);
    },
  };
}

/** How every streamed upstream body is read, passthrough and translated alike: a body that
 * breaks (connection lost) or goes silent for `idleMs` ends early, the silence told to `life`
 * first so the stream's terminal error names it. */
export function upstreamStream<T>(
  body: ChunkReader<T>,
  life: Lifecycle,
  provider: string,
  idleMs: number,
): ChunkReader<T> {
  return endingOnFailure(
    idleCutoff(body, idleMs, () => life.streamEnded(streamIdleTimeout(provider, idleMs))),
  );
}
