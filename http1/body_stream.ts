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

/** What a wrapper of a body reader sees of each read, inside the read's own promise step: a
 * wrapper that used `then` on every read instead would cost each chunk one more promise. */
export interface ReadHooks<T> {
  /** Sees each read's chunk (null: the end) and returns what the read resolves to. */
  chunk(chunk: T | null): T | null;
  /** Sees a read's failure (the mapped error) and returns what the read resolves to instead
   * (or throws). */
  error(error: unknown): T | null;
}

/** A chunk reader whose reads a wrapper may watch through {@link ReadHooks}. */
export interface HookableReader<T> extends ChunkReader<T> {
  /** Installs `hooks` on every later read (one wrapper per reader). */
  hook(hooks: ReadHooks<T>): void;
}

/** Whether `reader` takes {@link ReadHooks}. */
export function isHookable<T>(reader: ChunkReader<T>): reader is HookableReader<T> {
  return typeof (reader as Partial<HookableReader<T>>).hook === "function";
}

/** Size of the shared slabs small copies are carved from. A chunk held long (a slow client's
 * queue) keeps its whole slab alive, so slabs stay small: 10,000 such chunks would pin 40 MB. */
const SLAB_SIZE = 4096;
/** Copies longer than this get a buffer of their own. */
const MAX_CARVED = 1024;
let slab = new Uint8Array(SLAB_SIZE);
let slabUsed = 0;

/** Copies `parts` out (they are views into a reused read buffer). A small copy is a view carved
 * from a shared slab rather than a buffer of its own: an SSE event is a few hundred bytes, and
 * a new ArrayBuffer for each cost more than the copy (the allocation and V8's tracking of its
 * backing store, swept at every collection): `copyOut` alone was 4.8% of a streaming gateway's
 * CPU (bench streams, 3,000 streams). Nothing writes into a chunk or uses its `.buffer`. */
export function copyOut(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const part of parts) size += part.length;
  if (size > MAX_CARVED) return parts.length === 1 ? parts[0]!.slice() : concatBytes(parts);
  if (slabUsed + size > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + size);
  slabUsed += size;
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
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
): HookableReader<Uint8Array<ArrayBuffer>> {
  type Chunk = Uint8Array<ArrayBuffer>;
  let pending: Decoded | null = first;
  let finished = false;
  let hooks: ReadHooks<Chunk> | null = null;
  /** What a read resolves to: `out`, as the hooks (if any) see it. */
  const give = (out: Chunk | null): Chunk | null => hooks === null ? out : hooks.chunk(out);
  /** A failed read: the connection is given up, and the reader sees the mapped error. */
  const fail = (error: unknown): Chunk | null => {
    finished = true;
    end.abandon();
    const failure = end.failure(error);
    if (hooks === null) throw failure;
    return hooks.error(failure);
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
  const onInput = (input: Uint8Array | null): Chunk | null | Promise<Chunk | null> => {
    let out: Chunk | null | undefined;
    try {
      if (input === null) {
        if (!decoder.end()) {
          throw new Error("the upstream closed the connection before the body ended");
        }
        finished = true;
        end.complete(false);
        return give(null);
      }
      out = take(decoder.push(input));
    } catch (error) {
      return fail(error);
    }
    return out === undefined ? next() : give(out);
  };
  const onCount = (n: number | null) => {
    let input: Uint8Array | null;
    try {
      input = connection.bytesOf(n);
    } catch (error) {
      return fail(error);
    }
    return onInput(input);
  };
  const next = () => connection.readCount().then(onCount, fail);
  return {
    read() {
      if (finished) return Promise.resolve(give(null));
      const decoded = pending;
      pending = null;
      const out = decoded === null ? undefined : take(decoded);
      return out === undefined ? next() : Promise.resolve(give(out));
    },
    hook(watch) {
      hooks = watch;
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
