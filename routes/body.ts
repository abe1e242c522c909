/**
 * Body checks before validation: the size limit (checked on `Content-Length` before reading, and
 * counted while reading every body) and JSON parsing with a message that says where it broke.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { concatBytes } from "../core/bytes.ts";
import { ClientGone, GatewayError, invalidRequest } from "../core/errors.ts";
import type { AppEnv } from "./env.ts";

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

function tooLarge(limit: number): GatewayError {
  return new GatewayError(
    "request_too_large",
    413,
    `Request body exceeds the gateway's limit of ${limit} bytes (GATEHOUSE_MAX_BODY). ` +
      "Shorten the conversation or ask the operator to raise the limit.",
    { code: "request_too_large" },
  );
}

async function readLimited(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
}

/** A JSON request body as read: the object and its text. */
export interface JsonBody {
  value: Record<string, unknown>;
  text: string;
  /** The body's bytes, kept when they are {@link KEEP_BYTES_FROM} or more and exactly the
   * text's UTF-8 (no byte order mark, nothing replaced by U+FFFD): a same-wire upstream is then
   * sent them with the model spliced in, not the text encoded again (`forward_body.ts`). */
  utf8?: Uint8Array<ArrayBuffer>;
}

/** From this size a body's bytes are kept for the upstream. Encoding a body's text back to UTF-8
 * costs about 1 µs a kB (2-4 on a slow box) when it holds one character outside Latin-1 (V8
 * then keeps it two bytes a character), and nothing to speak of on the bench's 1 kB bodies; a
 * coding agent's requests are tens of kB. */
export const KEEP_BYTES_FROM = 16 * 1024;

/** Whether `text` is exactly the UTF-8 `bytes` decode to: the decoder drops a byte order mark
 * and replaces a malformed sequence with U+FFFD (a client's own U+FFFD also fails the check, and
 * is then only forwarded the slow way). */
function decodedExactly(bytes: Uint8Array, text: string): boolean {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return !bom && !text.includes("\uFFFD");
}

/** Reads `request`'s JSON object body under `limit` bytes: a 413, or a 400 saying what is wrong
 * (content type, no body, not JSON, not an object), or `ClientGone` when the client left while
 * it was read. */
export async function readJsonBody(
  request: Request,
  limit: number,
  decoder: TextDecoder,
): Promise<JsonBody> {
  const headers = request.headers;
  const length = headers.get("content-length");
  if (length !== null && Number(length) > limit) throw tooLarge(limit);
  const type = (headers.get("content-type") ?? "").split(";")[0]!.trim();
  if (!JSON_TYPE.test(type)) {
    throw invalidRequest(
      `The request body must be JSON sent with "Content-Type: application/json" (got ${
        type === "" ? "no Content-Type" : `"${type}"`
      }).`,
    );
  }
  // Read through the body's own reader, counting (a chunked body over the limit is refused
  // before it is all in memory), never with `text()`: Deno.serve (2.9.6) then reads each request
  // of the connection, head and body, in one 64 KiB read. After `text()` or `bytes()` it reads
  // the next one 1,024 bytes at a time, so the bench's 1,137-byte chat request took two reads.
  let text = "";
  let utf8: Uint8Array<ArrayBuffer> | undefined;
  try {
    const raw = request.body;
    if (raw !== null) {
      const bytes = await readLimited(raw, limit);
      text = decoder.decode(bytes);
      if (bytes.length >= KEEP_BYTES_FROM && decodedExactly(bytes, text)) {
        // A body that came in the runtime's read of its head is a view of that read's 64 KiB
        // buffer: kept as it is, it would hold all of it until the upstream answers.
        utf8 = bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      }
    }
  } catch (error) {
    // Reading a request body fails only when its client goes away (or it is over the limit).
    if (error instanceof GatewayError) throw error;
    throw new ClientGone(error);
  }
  if (text === "") throw invalidRequest("The request has no body: send a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidRequest(`The request body is not valid JSON: ${(error as Error).message}.`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalidRequest("The request body must be a JSON object.");
  }
  return { value: value as Record<string, unknown>, text, utf8 };
}

/** Middleware for JSON-bodied routes: enforces `limit` and parses the body once; `c.req.json()`
 * (called by the route validator and by the handler) then hands out that parsed value, also kept
 * as the `body` variable (a refusal's ledger row names the body's model). */
export function jsonBody(limit: number): MiddlewareHandler<AppEnv> {
  const decoder = new TextDecoder();
  return async function jsonBody(c, next) {
    if (c.req.method !== "POST") return await next();
    const { value, text, utf8 } = await readJsonBody(c.req.raw, limit, decoder);
    // Hono's own `json()` serves a cached JSON body by stringifying it into a new Response and
    // parsing that again, on every call; the validator and the handler each call it.
    c.set("body", value);
    c.set("bodyBytes", text.length);
    c.set("bodyText", text);
    if (utf8 !== undefined) c.set("bodyUtf8", utf8);
    const parsed = Promise.resolve(value);
    c.req.json = (() => parsed) as typeof c.req.json;
    await next();
  };
}
