/**
 * Reads a failed upstream response into the gateway error the client sees.
 * @module
 */
import { concatBytes } from "../core/bytes.ts";
import { type GatewayError, streamIncomplete } from "../core/errors.ts";
import type { ForwardCodec } from "../protocols/codec.ts";
import type { UpstreamResponse } from "../http1/client.ts";
import type { HeaderReader } from "../core/header_reader.ts";
import { bodyReaderOf, Http1Response } from "../http1/response.ts";
import { idleCutoff, streamIdleTimeout } from "./idle_cutoff.ts";

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

/** The first {@link MAX_ERROR_BODY} bytes of an error body, as text. */
export function readCappedText(response: UpstreamResponse): Promise<string> {
  return readCapped(response, MAX_ERROR_BODY);
}

/** Parses the upstream's error body (JSON or text) and lets the wire's codec map it. */
export async function readUpstreamError(
  response: UpstreamResponse,
  codec: Pick<ForwardCodec, "decodeError">,
): Promise<GatewayError> {
  const text = await readCapped(response, MAX_ERROR_BODY);
  return upstreamErrorOf(response.status, text, response.headers, codec);
}

/** An error body already read (JSON or text), mapped by the wire's codec. */
export function upstreamErrorOf(
  status: number,
  text: string,
  headers: HeaderReader,
  codec: Pick<ForwardCodec, "decodeError">,
): GatewayError {
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the codec receives the text.
  }
  return codec.decodeError(status, body, headers);
}

/** A whole upstream body; a connection that breaks before its end is the provider's cut, and
 * one that sends nothing for `idleMs` is ended as a stream would be (the client's own abort
 * propagates as it is). Read before anything reached the client: either is a failed attempt. */
export async function readWholeBody(
  response: UpstreamResponse,
  provider: string,
  signal: AbortSignal,
  idleMs: number,
): Promise<Uint8Array<ArrayBuffer>> {
  // Most JSON answers came whole with their head: nothing to wait for.
  const whole = response instanceof Http1Response ? response.takeWhole() : null;
  if (whole !== null) return whole;
  const source = bodyReaderOf(response);
  if (source === null) return new Uint8Array(0);
  let idle = false;
  let broke: { error: unknown } | null = null;
  const reader = idleCutoff(source, idleMs, () => idle = true, (error) => broke = { error });
  const chunks: Uint8Array[] = [];
  for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
    chunks.push(chunk);
  }
  if (idle) throw streamIdleTimeout(provider, idleMs);
  if (broke === null) return concatBytes(chunks);
  const { error } = broke as { error: unknown };
  if (signal.aborted) throw error;
  throw streamIncomplete(
    provider,
    "the end of its response body",
    ` (${(error as Error).message})`,
  );
}
