/**
 * What a response head says about what follows it: how the body is framed (none, a length,
 * chunked, or until the connection closes), its content coding, and how long the connection
 * may be kept afterwards.
 * @module
 */
import type { HeaderReader } from "../core/header_reader.ts";
import { type ChunkReader, readerStream } from "../core/chunk_reader.ts";
import {
  type BodyDecoder,
  chunkedDecoder,
  closeDelimitedDecoder,
  lengthDecoder,
} from "./body_decoder.ts";
import type { ResponseHead } from "./parse_head.ts";

/** The framing of the body that follows `head` (RFC 9112 §6.3); null when there is none. */
export function decoderFor(head: ResponseHead, method: string): BodyDecoder | null {
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
export function keepAliveMs(head: ResponseHead, idleMs: number): number {
  const connection = head.headers.get("connection")?.toLowerCase() ?? "";
  const persistent = head.version === "1.1"
    ? !connection.includes("close")
    : connection.includes("keep-alive");
  if (!persistent) return 0;
  // `Keep-Alive: timeout=N`: stop a second early so the server does not close it under us.
  const hint = /timeout=(\d+)/i.exec(head.headers.get("keep-alive") ?? "");
  return hint ? Math.min(idleMs, Number(hint[1]) * 1000 - 1000) : idleMs;
}

/** The response's content coding, lowercase; `identity` when it names none. Refuses a coding the
 * gateway cannot undo. */
export function contentCoding(headers: HeaderReader): string {
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
export function decode(
  body: ChunkReader<Uint8Array<ArrayBuffer>>,
  coding: string,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  return readerStream(body).pipeThrough(
    new DecompressionStream(coding === "deflate" ? "deflate" : "gzip"),
  );
}
