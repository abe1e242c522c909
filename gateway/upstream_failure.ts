/**
 * Reads a failed upstream response into the gateway error the client sees.
 * @module
 */
import type { GatewayError } from "../core/errors.ts";
import type { UpstreamCodec } from "../protocols/codec.ts";
import type { UpstreamResponse } from "../http1/client.ts";

/** Error bodies are small; a huge one is cut rather than held. */
const MAX_ERROR_BODY = 64 * 1024;

/** Parses the upstream's error body (JSON or text) and lets the wire's codec map it. */
export async function readUpstreamError(
  response: UpstreamResponse,
  codec: UpstreamCodec,
): Promise<GatewayError> {
  const text = (await response.text()).slice(0, MAX_ERROR_BODY);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the codec receives the text.
  }
  return codec.decodeError(response.status, body, response.headers);
}
