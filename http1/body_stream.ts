/**
 * A response body as a `ReadableStream`: each pull reads the socket once and hands out, as one
 * chunk, every body byte that read brought. Chunks that arrive together leave together (one
 * enqueue, one write to the client) instead of one stream round trip per upstream chunk.
 * @module
 */
import { concatBytes } from "../core/bytes.ts";
import type { BodyDecoder, Decoded } from "./body_decoder.ts";
import type { Connection } from "./connection.ts";

/** How a body stream ends. */
export interface BodyEnd {
  /** The body ended cleanly with nothing after it: the connection may carry another request. */
  complete(reusable: boolean): void;
  /** The body failed or was cancelled: the connection is closed. */
  abandon(): void;
  /** Maps a read failure to the error the reader sees (the abort reason after an abort). */
  failure(error: unknown): unknown;
}

/** Copies `parts` out (they are views into a reused read buffer). */
export function copyOut(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  return parts.length === 1 ? parts[0]!.slice() : concatBytes(parts);
}

/** The body read from `connection` through `decoder`, starting with `first`: what the decoder
 * made of the bytes that arrived with the head. */
export function bodyStream(
  connection: Connection,
  decoder: BodyDecoder,
  first: Decoded,
  end: BodyEnd,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  let pending: Decoded | null = first;
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        for (;;) {
          let decoded = pending;
          pending = null;
          if (decoded === null) {
            const input = await connection.read();
            if (input === null) {
              if (!decoder.end()) {
                throw new Error("the upstream closed the connection before the body ended");
              }
              end.complete(false);
              controller.close();
              return;
            }
            decoded = decoder.push(input);
          }
          const { data, done, rest } = decoded;
          if (data.length > 0) controller.enqueue(copyOut(data));
          if (done) {
            end.complete(rest.length === 0);
            controller.close();
            return;
          }
          if (data.length > 0) return;
        }
      } catch (error) {
        end.abandon();
        controller.error(end.failure(error));
      }
    },
    cancel() {
      end.abandon();
    },
  }, { highWaterMark: 0 });
}
