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

async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
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
  let text: string;
  try {
    const raw = request.body;
    text = raw === null ? "" : decoder.decode(await readLimited(raw, limit));
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
  return { value: value as Record<string, unknown>, text };
}

/** Middleware for JSON-bodied routes: enforces `limit` and parses the body once; `c.req.json()`
 * (called by the route validator and by the handler) then hands out that parsed value, also kept
 * as the `body` variable (a refusal's ledger row names the body's model). */
export function jsonBody(limit: number): MiddlewareHandler<AppEnv> {
  const decoder = new TextDecoder();
  return async function jsonBody(c, next) {
    if (c.req.method !== "POST") return await next();
    const { value, text } = await readJsonBody(c.req.raw, limit, decoder);
    // Hono's own `json()` serves a cached JSON body by stringifying it into a new Response and
    // parsing that again, on every call; the validator and the handler each call it.
    c.set("body", value);
    c.set("bodyBytes", text.length);
    c.set("bodyText", text);
    const parsed = Promise.resolve(value);
    c.req.json = (() => parsed) as typeof c.req.json;
    await next();
  };
}
