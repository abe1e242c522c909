/**
 * The gateway's upstream HTTP/1.1 client: a `fetch`-shaped call over pooled keep-alive
 * connections.
 *
 * Why not `fetch`: reading a `fetch` body from JavaScript costs one runtime round trip per chunk
 * the provider wrote (a streamed answer is hundreds), and that capped streamed throughput at a
 * third of a plain proxy's. Reading the socket directly returns everything that has arrived in
 * one read. The bench (`deno task bench`) measures the difference.
 *
 * Scope: what the gateway sends, which is a request with a string or byte body, answered by
 * HTTP/1.1 (ALPN `http/1.1` over TLS). Set `GATEHOUSE_UPSTREAM_CLIENT=fetch` to use the
 * runtime's `fetch` instead (for example to go through `HTTPS_PROXY`).
 * @module
 */
import { concatBytes } from "../core/bytes.ts";
import { bodyReader, copyOut } from "./body_stream.ts";
import { contentCoding, decode, decoderFor, keepAliveMs } from "./body_framing.ts";
import { openConnection } from "./connect.ts";
import type { Connection } from "./connection.ts";
import { encodeRequest, type UpstreamInit } from "./encode_request.ts";
import { parseResponseHead, type ResponseHead } from "./parse_head.ts";
import { Pool, type PoolOptions } from "./pool.ts";
import { Http1Response, type UpstreamResponse } from "./response.ts";
import { targetOf } from "./target.ts";
export { ConnectTimeoutError } from "./connect.ts";
export type { UpstreamInit } from "./encode_request.ts";
export type { UpstreamResponse } from "./response.ts";

/** A `fetch`-shaped upstream call; `globalThis.fetch` is one. */
export type UpstreamFetch = (url: string, init: UpstreamInit) => Promise<UpstreamResponse>;

/** A client with its pool. */
export interface Http1Client {
  fetch: UpstreamFetch;
  /** Idle pooled connections. */
  readonly idle: number;
  /** Closes the idle connections (requests in flight finish on their own). */
  close(): void;
}

/** A reused connection failed before any byte of the answer: the server had closed it. */
class StaleConnection extends Error {}

const EMPTY: Uint8Array = new Uint8Array(0);

/** Reads response heads until a final (non-1xx) one; returns it with the bytes after it, a view
 * of the connection's read buffer (valid until its next read). */
async function readHead(
  connection: Connection,
  reused: boolean,
): Promise<{ head: ResponseHead; rest: Uint8Array }> {
  // The usual head arrives whole in one read and is parsed where it lies; only bytes kept for
  // the next read are copied out of the connection's buffer, which that read reuses.
  let buffered = EMPTY;
  let borrowed = false;
  let received = false;
  for (;;) {
    if (borrowed) {
      buffered = buffered.slice();
      borrowed = false;
    }
    let input: Uint8Array | null;
    try {
      input = await connection.read();
    } catch (error) {
      if (reused && !received && !connection.closed) throw new StaleConnection(String(error));
      throw error;
    }
    if (input === null) {
      if (reused && !received) throw new StaleConnection("closed before answering");
      throw new Error("the upstream closed the connection before sending a response");
    }
    received = true;
    borrowed = buffered.length === 0;
    buffered = borrowed ? input : concatBytes([buffered, input]);
    for (let head = parseResponseHead(buffered); head; head = parseResponseHead(buffered)) {
      buffered = buffered.subarray(head.length);
      // Interim answers (100 Continue, 103 Early Hints) precede the real one.
      if (head.status >= 200) return { head, rest: buffered };
      if (head.status === 101) throw new Error("the upstream switched protocols unasked");
    }
  }
}

/** A new client with its own pool. */
export function createHttp1Client(options: PoolOptions = {}): Http1Client {
  const pool = new Pool(options);

  /** One attempt on one connection, up to the response head. */
  async function exchange(
    connection: Connection,
    reused: boolean,
    request: Uint8Array,
    method: string,
    signal: AbortSignal | undefined,
  ): Promise<UpstreamResponse> {
    // An abort closes the socket: a pending read or write fails, and the server sees the close.
    const onAbort = () => connection.close();
    signal?.addEventListener("abort", onAbort, { once: true });
    const release = () => signal?.removeEventListener("abort", onAbort);
    const drop = () => {
      release();
      connection.close();
    };
    const failure = (error: unknown) => signal?.aborted ? signal.reason : error;
    try {
      // The signal may have aborted after the connection opened and before this listened.
      signal?.throwIfAborted();
      try {
        await connection.write(request);
      } catch (error) {
        if (reused && !connection.closed) throw new StaleConnection(String(error));
        throw error;
      }
      const { head, rest } = await readHead(connection, reused);
      const decoder = decoderFor(head, method);
      const keepMs = keepAliveMs(head, pool.idleMs);
      const done = (reusable: boolean) => {
        release();
        if (reusable && keepMs > 0) pool.put(connection, keepMs);
        else connection.close();
      };
      if (decoder === null) {
        done(rest.length === 0);
        return new Http1Response(head, null);
      }
      const coding = contentCoding(head.headers);
      const first = decoder.push(rest);
      // A body that came whole with its head (most JSON answers) skips the stream machinery.
      if (first.done && coding === "identity") {
        // Copied before the connection can go back to the pool and read again.
        const whole = copyOut(first.data);
        done(first.rest.length === 0);
        return new Http1Response(head, whole);
      }
      const body = bodyReader(connection, decoder, first, {
        complete: done,
        abandon: drop,
        failure,
      });
      // A compressed body is undone by the runtime's stream; a plain one is read as it is.
      return new Http1Response(head, coding === "identity" ? body : decode(body, coding));
    } catch (error) {
      drop();
      throw failure(error);
    }
  }

  async function send(input: string, init: UpstreamInit): Promise<UpstreamResponse> {
    const target = targetOf(input);
    const origin = target.origin;
    init.signal?.throwIfAborted();
    const request = encodeRequest(target, init);
    for (;;) {
      const pooled = pool.take(origin);
      const connection = pooled ??
        await openConnection(origin, init.signal, init.connectTimeoutMs);
      try {
        return await exchange(connection, pooled !== null, request, init.method, init.signal);
      } catch (error) {
        // The server closed an idle connection as we reused it: nothing was answered, so the
        // request goes again on another connection (a fresh one fails for real).
        if (error instanceof StaleConnection) continue;
        throw error;
      }
    }
  }

  return {
    fetch: send,
    get idle() {
      return pool.size;
    },
    close: () => pool.close(),
  };
}
