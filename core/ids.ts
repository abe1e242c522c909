/**
 * Ids gatehouse hands out. A response, message or completion that gatehouse composes gets an id
 * of its own, never one derived from the upstream's (an OpenAI-compatible server may repeat its
 * ids, and so may a retry), so ids never collide across requests or keys.
 * @module
 */

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** A random id of `length` lowercase base36 characters (24 carry about 124 bits). */
export function randomId(length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = "";
  // 252 = 7 × 36: bytes at or above it are redrawn, so every character is equally likely.
  for (let i = 0; i < length; i++) {
    let byte = bytes[i]!;
    while (byte >= 252) byte = crypto.getRandomValues(new Uint8Array(1))[0]!;
    id += ALPHABET[byte % 36];
  }
  return id;
}

/** The header that carries a request's id, both ways. */
export const REQUEST_ID_HEADER = "x-request-id";

/** A request id: the client's own when it sent a sane one, else a fresh `req_…`. */
export function requestIdFrom(sent: string | null | undefined): string {
  return sent !== null && sent !== undefined && SANE_REQUEST_ID.test(sent)
    ? sent
    : `req_${randomId()}`;
}

/** What a client-sent `x-request-id` may look like to be kept: printable, no spaces, bounded. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:\-]{8,128}$/;
