/**
 * A registry of short-lived entries in reused array slots: adding takes a free slot (or a new
 * one), removing clears it. For the per-request registries on the hot path (requests in flight,
 * upstream deadlines): a `Set` or `Map` that takes and drops an entry per request makes V8 keep
 * each entry, and everything it reaches, alive past the scavenges that should free it, until a
 * full collection (its hash tables are rebuilt as entries come and go, and the tables left behind
 * still hold them). Measured with `deno task bench --gc=chat-json`: the in-flight `Set` alone
 * had each request promote about 3 KiB more to the old generation.
 * @module
 */

/** Entries in reusable slots; a removed entry's slot holds `undefined` until reused. */
export class Slots<T> {
  readonly #slots: (T | undefined)[] = [];
  readonly #free: number[] = [];

  /** Entries held. */
  get size(): number {
    return this.#slots.length - this.#free.length;
  }

  /** Holds `entry`; returns its slot. */
  add(entry: T): number {
    const slot = this.#free.pop() ?? this.#slots.length;
    this.#slots[slot] = entry;
    return slot;
  }

  /** Drops `entry` from `slot`; false when the slot holds something else (already removed). */
  remove(slot: number, entry: T): boolean {
    if (this.#slots[slot] !== entry) return false;
    this.#slots[slot] = undefined;
    this.#free.push(slot);
    return true;
  }

  /** The entry in `slot`, if any. */
  at(slot: number): T | undefined {
    return this.#slots[slot];
  }

  /** The number of slots, held or free (the bound of {@link at}). */
  get capacity(): number {
    return this.#slots.length;
  }

  /** The entries held now, as a new array. */
  values(): T[] {
    const out: T[] = [];
    for (const entry of this.#slots) if (entry !== undefined) out.push(entry);
    return out;
  }
}
