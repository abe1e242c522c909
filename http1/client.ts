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
import type { HeaderReader } from "../core/header_reader.ts";
import { bodyReader, copyOut } from "./body_stream.ts";
import { type ChunkReader, readerStream } from "../core/chunk_reader.ts";
import {
  type BodyDecoder,
  chunkedDecoder,
  closeDelimitedDecoder,
  lengthDecoder,
} from "./body_decoder.ts";
import { Connection, type Origin } from "./connection.ts";
import { HEADER_NAME } from "./header_syntax.ts";
import { parseResponseHead, type ResponseHead } from "./parse_head.ts";
import { Pool, type PoolOptions } from "./pool.ts";
import { Http1Response, type UpstreamResponse } from "./response.ts";
import { type Target, targetOf } from "./target.ts";
export type { UpstreamResponse } from "./response.ts";

/** What the gateway passes to an upstream call (a subset of `RequestInit`). */
export interface UpstreamInit {
  method: string;
  headers: Headers | Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  signal?: AbortSignal;
}

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

/** Request headers the client writes itself. */
const OWN_HEADERS = new Set([
  "host",
  "content-length",
  "connection",
  "transfer-encoding",
  "keep-alive",
]);

const encoder = new TextEncoder();

/** A reused connection failed before any byte of the answer: the server had closed it. */
class StaleConnection extends Error {}

/** What may never appear in a header value: a line end, or a character that is not one byte. */
const BAD_VALUE = /[\r\n\0\u0100-\uffff]/;

/** The header lines of a request; the names lowercase, as HTTP/2 and most clients send them. */
function headerLines(headers: Headers | Record<string, string>): string {
  let lines = "";
  let acceptEncoding = false;
  const add = (name: string, value: string) => {
    const lower = name.toLowerCase();
    if (OWN_HEADERS.has(lower)) return;
    // The value is not quoted in the message: it may be a credential.
    if (!HEADER_NAME.test(name) || BAD_VALUE.test(value)) {
      throw new TypeError(`header ${JSON.stringify(name)} has an invalid name or value`);
    }
    if (lower === "accept-encoding") acceptEncoding = true;
    lines += `${lower}: ${value.trim()}\r\n`;
  };
  if (headers instanceof Headers) { for (const [name, value] of headers) add(name, value); }
  else for (const name in headers) add(name, headers[name]!);
  // Bodies are read as they come; a compressed stream could not be tapped for usage.
  if (!acceptEncoding) lines += "accept-encoding: identity\r\n";
  return lines;
}

/** Where string bodies up to a third of its size are encoded before being copied behind the
 * head: `encode` would allocate a buffer per request only to copy it at once, and an allocation
 * costs more than the encoding of a typical body. Used synchronously, so one is enough. */
const scratch = new Uint8Array(64 * 1024);

/** The UTF-8 bytes of a body (a view of {@link scratch} for small strings: copy before reuse). */
function bodyBytes(body: string | Uint8Array | undefined): Uint8Array | undefined {
  if (typeof body !== "string") return body;
  // UTF-8 takes at most three bytes per UTF-16 code unit.
  if (body.length * 3 > scratch.length) return encoder.encode(body);
  return scratch.subarray(0, encoder.encodeInto(body, scratch).written);
}

/** The request's bytes: head and body in one buffer, so it goes out in one write. */
function encodeRequest(target: Target, init: UpstreamInit): Uint8Array {
  const body = bodyBytes(init.body);
  let head = `${init.method} ${target.path} HTTP/1.1\r\nhost: ${target.host}\r\n` +
    headerLines(init.headers);
  if (body !== undefined || init.method === "POST") {
    head += `content-length: ${body?.length ?? 0}\r\n`;
  }
  head += "\r\n";
  const bytes = new Uint8Array(head.length + (body?.length ?? 0));
  // Header values are byte strings: each character is one byte (Latin-1), never UTF-8.
  for (let i = 0; i < head.length; i++) bytes[i] = head.charCodeAt(i);
  if (body) bytes.set(body, head.length);
  return bytes;
}

/** The framing of the body that follows `head` (RFC 9112 §6.3); null when there is none. */
function decoderFor(head: ResponseHead, method: string): BodyDecoder | null {
  if (method === "HEAD" || head.status === 204 || head.status === 304) return null;
  if (/\bchunked\s*$/i.test(head.headers.get("transfer-encoding") ?? "")) return chunkedDecoder();
  const length = head.headers.get("content-length");
  if (length !== null) {
    if (!/^\d+$/.test(length)) {
      throw new Error(`malformed content-length ${JSON.stringify(length)}`);
    }
    return Number(length) === 0 ? null : lengthDecoder(Number(length));
  }
  return closeDelimitedDecoder();
}

/** How long the connection may be kept after this response, in ms; 0 when it may not. */
function keepAliveMs(head: ResponseHead, idleMs: number): number {
  const connection = head.headers.get("connection")?.toLowerCase() ?? "";
  const persistent = head.version === "1.1"
    ? !connection.includes("close")
    : connection.includes("keep-alive");
  if (!persistent) return 0;
  // `Keep-Alive: timeout=N`: stop a second early so the server does not close it under us.
  const hint = /timeout=(\d+)/i.exec(head.headers.get("keep-alive") ?? "");
  return hint ? Math.min(idleMs, Number(hint[1]) * 1000 - 1000) : idleMs;
}

/** Rejects when `signal` aborts; the returned function stops listening. */
function abortPromise(signal: AbortSignal | undefined): { promise: Promise<never>; stop(): void } {
  if (!signal) return { promise: new Promise<never>(() => {}), stop: () => {} };
  let stop = () => {};
  const promise = new Promise<never>((_, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    stop = () => signal.removeEventListener("abort", onAbort);
  });
  promise.catch(() => {});
  return { promise, stop };
}

/** Reads response heads until a final (non-1xx) one; returns it with the bytes after it. */
async function readHead(
  connection: Connection,
  reused: boolean,
): Promise<{ head: ResponseHead; rest: Uint8Array }> {
  let buffered = new Uint8Array(0);
  let received = false;
  for (;;) {
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
    buffered = concatBytes([buffered, input]);
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
        done(first.rest.length === 0);
        return new Http1Response(head, copyOut(first.data));
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

  async function connect(origin: Origin, signal: AbortSignal | undefined): Promise<Connection> {
    const abort = abortPromise(signal);
    const opening = Connection.open(origin);
    try {
      return await Promise.race([opening, abort.promise]);
    } catch (error) {
      // A connection that opens after the abort is closed at once.
      opening.then((connection) => connection.close(), () => {});
      throw error;
    } finally {
      abort.stop();
    }
  }

  async function send(input: string, init: UpstreamInit): Promise<UpstreamResponse> {
    const target = targetOf(input);
    const origin = target.origin;
    init.signal?.throwIfAborted();
    const request = encodeRequest(target, init);
    for (;;) {
      const pooled = pool.take(origin);
      const connection = pooled ?? await connect(origin, init.signal);
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

/** The response's content coding, lowercase; `identity` when it names none. Refuses a coding the
 * gateway cannot undo. */
function contentCoding(headers: HeaderReader): string {
  const coding = headers.get("content-encoding")?.trim().toLowerCase() ?? "identity";
  switch (coding) {
    case "identity":
    case "gzip":
    case "x-gzip":
    case "deflate":
      return coding;
    default:
      throw new Error(
        `the upstream answered with content-encoding "${coding}", which the gateway cannot decode`,
      );
  }
}

/** Undoes a content coding the server applied despite `accept-encoding: identity`. */
function decode(
  body: ChunkReader<Uint8Array<ArrayBuffer>>,
  coding: string,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  return readerStream(body).pipeThrough(
    new DecompressionStream(coding === "deflate" ? "deflate" : "gzip"),
  );
}
