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
 * made of the bytes that arrived with the head. Its reads are promise chains, not async
 * functions: a stream reads once per chunk, and a suspended async frame per read was much of
 * what a chunk allocated. */
export function bodyReader(
  connection: Connection,
  decoder: BodyDecoder,
  first: Decoded,
  end: BodyEnd,
): ChunkReader<Uint8Array<ArrayBuffer>> {
  let pending: Decoded | null = first;
  let finished = false;
  /** A failed read: the connection is given up, and the reader sees the mapped error. */
  const fail = (error: unknown): never => {
    finished = true;
    end.abandon();
    throw end.failure(error);
  };
  /** What `decoded` hands out: its body bytes, null at the end of the body, or undefined when
   * it holds none (framing only: read on). */
  const take = (decoded: Decoded): Uint8Array<ArrayBuffer> | null | undefined => {
    const { data, done, rest } = decoded;
    if (done) {
      finished = true;
      end.complete(rest.length === 0);
      return data.length > 0 ? copyOut(data) : null;
    }
    return data.length > 0 ? copyOut(data) : undefined;
  };
  const onInput = (
    input: Uint8Array | null,
  ): Uint8Array<ArrayBuffer> | null | Promise<Uint8Array<ArrayBuffer> | null> => {
    let out: Uint8Array<ArrayBuffer> | null | undefined;
    try {
      if (input === null) {
        if (!decoder.end()) {
          throw new Error("the upstream closed the connection before the body ended");
        }
        finished = true;
        end.complete(false);
        return null;
      }
      out = take(decoder.push(input));
    } catch (error) {
      return fail(error);
    }
    return out === undefined ? next() : out;
  };
  const onCount = (n: number | null) => onInput(connection.bytesOf(n));
  const next = () => connection.readCount().then(onCount, fail);
  return {
    read() {
      if (finished) return Promise.resolve(null);
      const decoded = pending;
      pending = null;
      const out = decoded === null ? undefined : take(decoded);
      return out === undefined ? next() : Promise.resolve(out);
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
