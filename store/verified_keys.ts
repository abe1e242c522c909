/**
 * A short-lived memory of keys that verified, so the request path does not hash and query the
 * database for every request of a busy key. Only successes are remembered; the presented key is
 * compared to the remembered one in constant time.
 *
 * A key revoked through this store is forgotten at once. A key revoked by another process (the
 * `keys` CLI, another instance) stops verifying here within {@link VERIFIED_KEY_TTL_MS}.
 * @module
 */
import type { KeyRecord } from "./store.ts";

/** How long a verified key is trusted without asking the database again. */
export const VERIFIED_KEY_TTL_MS = 5_000;

/** The most keys remembered; beyond it the oldest is dropped. */
const MAX_ENTRIES = 10_000;

interface Entry {
  presented: string;
  record: KeyRecord;
  until: number;
}

/** True when `a` and `b` are the same string; the time taken depends only on their lengths. */
function sameString(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i % b.length);
  return difference === 0;
}

/** Verified keys by id. */
export class VerifiedKeys {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;

  constructor(ttlMs = VERIFIED_KEY_TTL_MS) {
    this.#ttlMs = ttlMs;
  }

  /** The record of key `id` when `presented` is the key that verified under it lately. */
  get(id: string, presented: string, now: number): KeyRecord | null {
    const entry = this.#entries.get(id);
    if (entry === undefined) return null;
    if (entry.until <= now) {
      this.#entries.delete(id);
      return null;
    }
    return sameString(presented, entry.presented) ? entry.record : null;
  }

  /** Remembers that `presented` verified as `record`. */
  set(id: string, presented: string, record: KeyRecord, now: number): void {
    this.#entries.delete(id);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(id, { presented, record, until: now + this.#ttlMs });
  }

  /** Updates the remembered record of `id` (its `last_used_at` moved), keeping its expiry. */
  update(id: string, record: KeyRecord): void {
    const entry = this.#entries.get(id);
    if (entry) entry.record = record;
  }

  /** Forgets key `id` (it was revoked). */
  forget(id: string): void {
    this.#entries.delete(id);
  }
}
