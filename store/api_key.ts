/**
 * API key format, hashing and constant-time verification.
 *
 * A key reads `gth_<id>_<secret>`: `id` is 10 lowercase base32 characters (50 bits, public: it
 * names the stored row), `secret` is 32 base62 characters (about 190.5 bits). Only the SHA-256
 * hex digest of the whole key is stored. A fast hash is enough here: the secret is uniformly
 * random with far more entropy than a password, so a slow KDF would only tax the hot path.
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** Every gatehouse key starts with this. */
export const KEY_PREFIX = "gth_";
/** Length of the public key id. */
export const KEY_ID_LENGTH = 10;
/** Length of the random secret. */
export const KEY_SECRET_LENGTH = 32;
/** Characters shown in a key's hint, before the ellipsis. */
export const KEY_HINT_LENGTH = 12;

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const SECRET_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = new RegExp(
  `^${KEY_PREFIX}([${ID_ALPHABET}]{${KEY_ID_LENGTH}})_[0-9A-Za-z]{${KEY_SECRET_LENGTH}}$`,
);
/** Compared against when no row matches, so unknown ids cost the same work as known ones. */
const ABSENT_HASH = "0".repeat(64);

/** A freshly generated key. `key` is the only copy of the secret; show it once. */
export interface GeneratedKey {
  id: string;
  key: string;
  /** SHA-256 hex of `key`: the only form that is stored. */
  hash: string;
  hint: string;
}

/**
 * A uniformly random string over `alphabet` from `crypto.getRandomValues`. Bytes at or above
 * the largest multiple of the alphabet size are rejected, so no character is favoured.
 */
export function randomString(length: number, alphabet: string): string {
  if (alphabet.length < 2 || alphabet.length > 256) {
    throw new RangeError(`randomString needs 2 to 256 symbols, got ${alphabet.length}`);
  }
  const limit = 256 - (256 % alphabet.length);
  const out: string[] = [];
  const bytes = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte >= limit) continue;
      out.push(alphabet.charAt(byte % alphabet.length));
      if (out.length === length) break;
    }
  }
  return out.join("");
}

/** SHA-256 of the whole presented key, as lowercase hex. Synchronous (`node:crypto`): it runs
 * on every request, and the WebCrypto digest costs a trip through the event loop. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** The safe-to-show prefix of a key: its first 12 characters and an ellipsis. */
export function keyHint(key: string): string {
  return `${key.slice(0, KEY_HINT_LENGTH)}…`;
}

/** Generates a new key with its id, hash and hint. */
export function generateApiKey(): GeneratedKey {
  return generateApiKeyFor(randomString(KEY_ID_LENGTH, ID_ALPHABET));
}

/** Generates a new random secret under an existing key id (rotation keeps the id). Throws for an
 * id that is not in the key format. */
export function generateApiKeyFor(id: string): GeneratedKey {
  const key = `${KEY_PREFIX}${id}_${randomString(KEY_SECRET_LENGTH, SECRET_ALPHABET)}`;
  if (parseKeyId(key) !== id) throw new Error(`"${id}" is not a key id`);
  return { id, key, hash: hashApiKey(key), hint: keyHint(key) };
}

/** The public id of a well-formed key, or null when `presented` is not in the key format. */
export function parseKeyId(presented: string): string | null {
  return KEY_PATTERN.exec(presented)?.[1] ?? null;
}

/**
 * Compares two hex digests without an early exit on the first differing byte. Inputs of
 * different lengths are unequal; digests always have the same length, so that branch leaks
 * nothing about a secret.
 */
export function digestsEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}

/** Which stored secret a presented key is: the current one, the one before the last rotation, or
 * neither (null). */
export type SecretMatch = "current" | "previous" | null;

/**
 * Which of a key's two stored hashes `presented` hashes to. Hashes once and always makes both
 * comparisons, against a placeholder where a hash is absent (unknown id, never rotated), so the
 * work done does not depend on which matched or whether the id exists.
 */
export function matchStoredHashes(
  presented: string,
  currentHash: string | null,
  previousHash: string | null,
): SecretMatch {
  const digest = hashApiKey(presented);
  const current = digestsEqual(digest, currentHash ?? ABSENT_HASH) && currentHash !== null;
  const previous = digestsEqual(digest, previousHash ?? ABSENT_HASH) && previousHash !== null;
  return current ? "current" : previous ? "previous" : null;
}
