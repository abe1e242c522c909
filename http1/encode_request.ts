/**
 * A request's bytes as the upstream client writes them: request line, header lines and body in
 * one buffer, so the request goes out in one write.
 * @module
 */
import { HEADER_NAME } from "./header_syntax.ts";
import type { Target } from "./target.ts";

/** What the gateway passes to an upstream call (a subset of `RequestInit`). */
export interface UpstreamInit {
  method: string;
  headers: Headers | Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  signal?: AbortSignal;
  /** How long opening a new connection (TCP connect and, for https, the TLS handshake) may take,
   * ms; past it the call rejects with a `ConnectTimeoutError`. No limit when unset. A pooled
   * connection is reused without it; the runtime's `fetch` ignores it. */
  connectTimeoutMs?: number;
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

/** The request's bytes: head and body in one buffer, so it goes out in one write. Throws a
 * `TypeError` for a header with an invalid name or value. */
export function encodeRequest(target: Target, init: UpstreamInit): Uint8Array {
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
