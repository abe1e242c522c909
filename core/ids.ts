/**
 * Ids gatehouse hands out. A response, message or completion that gatehouse composes gets an id
 * of its own, never one derived from the upstream's (an OpenAI-compatible server may repeat its
 * ids, and so may a retry), so ids never collide across requests or keys.
 * @module
 */

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Random bytes drawn a few kilobytes at a time: one draw per id cost more than the id's
 * request spent anywhere else in the gateway's own bookkeeping (`deno task bench --profile`). */
const pool = new Uint8Array(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    crypto.getRandomValues(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** A random id of `length` lowercase base36 characters (24 carry about 124 bits). */
export function randomId(length = 24): string {
  let id = "";
  for (let i = 0; i < length; i++) {
    let byte = randomByte();
    // 252 = 7 × 36: bytes at or above it are redrawn, so every character is equally likely.
    while (byte >= 252) byte = randomByte();
    id += ALPHABET[byte % 36];
  }
  return id;
}

/** The header that carries a request's id, both ways. */
export const REQUEST_ID_HEADER = "x-request-id";

/** The response header naming the catalog model that answered (differs from the requested one
 * after a fallback). */
export const SERVED_MODEL_HEADER = "x-gatehouse-served-model";

/** A request id: the client's own when it sent a sane one, else a fresh `req_…`. */
export function requestIdFrom(sent: string | null | undefined): string {
  return sent !== null && sent !== undefined && SANE_REQUEST_ID.test(sent)
    ? sent
    : `req_${randomId()}`;
}

/** What a client-sent `x-request-id` may look like to be kept: printable, no spaces, bounded. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:\-]{8,128}$/;
