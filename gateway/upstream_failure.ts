/**
 * Reads a failed upstream response into the gateway error the client sees.
 * @module
 */
import { concatBytes } from "../core/bytes.ts";
import type { GatewayError } from "../core/errors.ts";
import type { UpstreamCodec } from "../protocols/codec.ts";
import type { UpstreamResponse } from "../http1/client.ts";

/** Error bodies are small; past this much, the rest is not read (nor held). */
export const MAX_ERROR_BODY = 64 * 1024;

const utf8 = new TextDecoder();

/** The first `limit` bytes of the body, as text (a character the cut splits is left out). A
 * longer body is cancelled there, which closes its connection instead of reading on. */
async function readCapped(response: UpstreamResponse, limit: number): Promise<string> {
  const body = response.body;
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } finally {
    if (!ended && size >= limit) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const bytes = concatBytes(chunks).subarray(0, limit);
  // Streaming mode holds back an unfinished character at the end instead of writing U+FFFD.
  return ended ? utf8.decode(bytes) : new TextDecoder().decode(bytes, { stream: true });
}

/** Parses the upstream's error body (JSON or text) and lets the wire's codec map it. */
export async function readUpstreamError(
  response: UpstreamResponse,
  codec: UpstreamCodec,
): Promise<GatewayError> {
  const text = await readCapped(response, MAX_ERROR_BODY);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the codec receives the text.
  }
  return codec.decodeError(response.status, body, response.headers);
}
