/**
 * A response body read from its connection: each read takes the socket once and hands out, as
 * one chunk, every body byte that read brought. Chunks that arrive together leave together (one
 * write to the client) instead of one round per upstream chunk.
 * @module
 */
import { concatBytes } from "../core/bytes.ts";
import type { ChunkReader } from "../core/chunk_reader.ts";
import type { BodyDecoder, Decoded } from "./body_decoder.ts";
import type { Connection } from "./connection.ts";

/** How a body ends. */
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
export function bodyReader(
  connection: Connection,
  decoder: BodyDecoder,
  first: Decoded,
  end: BodyEnd,
): ChunkReader<Uint8Array<ArrayBuffer>> {
  let pending: Decoded | null = first;
  let finished = false;
  return {
    async read() {
      if (finished) return null;
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
              finished = true;
              end.complete(false);
              return null;
            }
            decoded = decoder.push(input);
          }
          const { data, done, rest } = decoded;
          if (done) {
            finished = true;
            end.complete(rest.length === 0);
            return data.length > 0 ? copyOut(data) : null;
          }
          if (data.length > 0) return copyOut(data);
        }
      } catch (error) {
        finished = true;
        end.abandon();
        throw end.failure(error);
      }
    },
    cancel() {
      if (!finished) {
        finished = true;
        end.abandon();
      }
      return Promise.resolve();
    },
  };
}
