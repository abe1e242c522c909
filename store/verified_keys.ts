/**
 * A memory of keys that verified, so the request path does not hash and query the database for
 * every request of a busy key. Only keys whose secret matched are remembered (with which secret:
 * the current one or the one before the last rotation); the presented key is compared to the
 * remembered one in constant time. The caller still judges the remembered record at every use
 * (`keyVerdict`): expiry and the end of a rotation's grace need no database.
 *
 * Nothing is trusted for a fixed time. Instead the store keeps a key generation that every key
 * or team change bumps, in the same transaction, from any process; before using the memory, it
 * is read again when {@link KEYS_CHECK_INTERVAL_MS} has passed since the last read, and a changed
 * generation clears the memory. A change through the same store clears it at once
 * ({@link VerifiedKeys.reset}). So a revocation, rotation or policy change made elsewhere (the CLI,
 * another instance) is seen within the interval plus one request.
 * @module
 */
import type { SecretMatch } from "./api_key.ts";
import type { KeyRecord } from "./store.ts";

/** Default: how often the key generation is read again while the memory is in use. */
export const KEYS_CHECK_INTERVAL_MS = 250;

/** The most keys remembered; beyond it the oldest is dropped. */
const MAX_ENTRIES = 10_000;

/** A remembered key. */
export interface VerifiedKey {
  record: KeyRecord;
  /** Which stored secret the presented key matched. */
  matched: Exclude<SecretMatch, null>;
}

interface Entry {
  presented: string;
  key: VerifiedKey;
}

/** Options for {@link VerifiedKeys}. */
export interface VerifiedKeysOptions {
  /** Reads the store's current key generation. */
  generation: () => number;
  /** Milliseconds between generation reads; 0 reads it before every use. */
  checkIntervalMs?: number;
  /** A monotonic clock in milliseconds (default `performance.now`). Tests pass a fake one. */
  clock?: () => number;
}

/** True when `a` and `b` are the same string; the time taken depends only on their lengths. */
function sameString(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i % b.length);
  return difference === 0;
}

/** Verified keys by id, valid for one key generation. */
export class VerifiedKeys {
  readonly #entries = new Map<string, Entry>();
  readonly #generation: () => number;
  readonly #intervalMs: number;
  readonly #clock: () => number;
  /** The generation the entries belong to; null before the first read. */
  #known: number | null = null;
  #checkedAt = Number.NEGATIVE_INFINITY;

  constructor(options: VerifiedKeysOptions) {
    this.#generation = options.generation;
    this.#intervalMs = options.checkIntervalMs ?? KEYS_CHECK_INTERVAL_MS;
    this.#clock = options.clock ?? (() => performance.now());
  }

  /** The remembered key `id` when `presented` is the key that verified under it. Reads the
   * generation first when the interval has passed, forgetting everything when it changed. */
  get(id: string, presented: string): VerifiedKey | null {
    this.#sync();
    const entry = this.#entries.get(id);
    if (entry === undefined) return null;
    return sameString(presented, entry.presented) ? entry.key : null;
  }

  /** Remembers that `presented` verified as `record`. Call after {@link get} brought the
   * generation up to date and `record` was read, with no await between. */
  set(id: string, presented: string, record: KeyRecord, matched: VerifiedKey["matched"]): void {
    if (this.#known === null) this.#sync();
    this.#entries.delete(id);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(id, { presented, key: { record, matched } });
  }

  /** Replaces the remembered record of `id` (its `last_used_at` moved). */
  update(id: string, record: KeyRecord): void {
    const entry = this.#entries.get(id);
    if (entry) entry.key = { record, matched: entry.key.matched };
  }

  /** Forgets key `id` (it no longer verifies). */
  forget(id: string): void {
    this.#entries.delete(id);
  }

  /** Forgets every key: this store changed keys or teams, making `generation` current. */
  reset(generation: number): void {
    this.#entries.clear();
    this.#known = generation;
    this.#checkedAt = this.#clock();
  }

  /** How many keys are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  #sync(): void {
    const now = this.#clock();
    if (now - this.#checkedAt < this.#intervalMs) return;
    this.#checkedAt = now;
    const generation = this.#generation();
    if (generation !== this.#known) {
      this.#entries.clear();
      this.#known = generation;
    }
  }
}
