/**
 * Deterministic text helpers for the scripted upstream: ids shaped like each provider's, and the
 * pieces a streamed text or argument string is cut into.
 * @module
 */

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";

/** The alphabets provider ids are drawn from. */
export type IdAlphabet = "base62" | "hex";

/**
 * A pseudo-random id `prefix + length chars`, fully determined by `seed` (FNV-1a, re-mixed per
 * character), so a test run repeats its ids exactly.
 */
export function fakeId(
  prefix: string,
  seed: string,
  length: number,
  alphabet: IdAlphabet = "base62",
): string {
  const chars = alphabet === "hex" ? HEX : BASE62;
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193);
  let id = prefix;
  for (let i = 0; i < length; i++) {
    hash = Math.imul(hash ^ (hash >>> 15) ^ i, 0x2c1b3c6d) >>> 0;
    id += chars[hash % chars.length];
  }
  return id;
}

/** Cuts text into word-sized deltas (`"Tool said: x"` → `"Tool"`, `" said:"`, `" x"`). */
export function wordPieces(text: string): string[] {
  const pieces = text.match(/\s*\S+|\s+$/g) ?? [];
  return pieces.length > 0 ? pieces : [text];
}

/**
 * Cuts text into `count` pieces of near-equal length (by code point, never splitting a surrogate
 * pair); short strings give fewer pieces, but any string of 2+ code points gives at least 2.
 */
export function splitPieces(text: string, count = 3): string[] {
  const points = Array.from(text);
  const n = Math.max(1, Math.min(count, points.length));
  const size = Math.ceil(points.length / n);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(""));
  return pieces.length > 0 ? pieces : [text];
}

/** The first line of a text (without a trailing `\r`). */
export function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").replace(/\r$/, "");
}
