/**
 * The `tpm` window: tokens of the requests admitted in the last 60 seconds. Each request adds
 * an entry at admission (its input estimate), which its release replaces with the real input +
 * output tokens; an entry counts at its admission time, so a request running longer than the
 * window no longer counts once it settles.
 *
 * The entries are two ring buffers of numbers (times and tokens), not an object each: a busy key
 * holds a minute of admissions (300,000 at 5,000 requests a second, in the key's window and again
 * in its team's), and an object per admission was one more allocation per request that lived
 * long enough to be copied into the old generation, where each full collection marked it again.
 * @module
 */
import { WINDOW_MS } from "./sliding_window.ts";

/** One request's place in a window, handed back to {@link TokenWindow.settle}: its sequence
 * number among the window's entries (entries below the oldest counted have left). */
export type TokenEntry = number;

const INITIAL_CAPACITY = 16;
/** Below this capacity the buffers are never shrunk. */
const SHRINK_ABOVE = 1024;

/** Tokens counted over a sliding 60-second window. The limit is passed to each check (a policy
 * edit needs no resize). */
export class TokenWindow {
  #times = new Float64Array(INITIAL_CAPACITY);
  #tokens = new Float64Array(INITIAL_CAPACITY);
  /** Where the oldest counted entry is in the buffers. */
  #head = 0;
  #count = 0;
  /** The sequence number of the oldest counted entry (the next one's when none is counted). */
  #first = 0;
  #sum = 0;

  /** Tokens counted at `now`. */
  used(now: number): number {
    this.#prune(now);
    return this.#sum;
  }

  /** Whether no entry is counted at `now`. */
  empty(now: number): boolean {
    this.#prune(now);
    return this.#count === 0;
  }

  /** Milliseconds until `tokens` more fit under `limit` (0: now), if nothing else changes;
   * Infinity when `tokens` alone exceed it. */
  waitMs(now: number, tokens: number, limit: number): number {
    if (tokens > limit) return Infinity;
    this.#prune(now);
    let excess = this.#sum + tokens - limit;
    if (excess <= 0) return 0;
    for (let i = 0; i < this.#count; i++) {
      const at = this.#slot(i);
      excess -= this.#tokens[at]!;
      if (excess <= 0) return this.#times[at]! + WINDOW_MS - now;
    }
    return WINDOW_MS;
  }

  /** Counts `tokens` at `now`; the entry is handed back to {@link settle}. Times are kept in
   * order: a clock that stepped back counts the newest time again. */
  add(now: number, tokens: number): TokenEntry {
    this.#prune(now);
    const time = this.#count > 0 ? Math.max(now, this.#times[this.#slot(this.#count - 1)]!) : now;
    if (this.#count === this.#times.length) this.#resize(this.#times.length * 2);
    const at = this.#slot(this.#count);
    this.#times[at] = time;
    this.#tokens[at] = tokens;
    this.#count++;
    this.#sum += tokens;
    return this.#first + this.#count - 1;
  }

  /** Replaces an entry's tokens with the real figure (nothing when it already left). */
  settle(entry: TokenEntry, tokens: number): void {
    const i = entry - this.#first;
    if (i < 0 || i >= this.#count) return;
    const at = this.#slot(i);
    this.#sum += tokens - this.#tokens[at]!;
    this.#tokens[at] = tokens;
  }

  /** When every entry counted at `now` has left the window (`now` when none). */
  resetAt(now: number): number {
    this.#prune(now);
    if (this.#count === 0) return now;
    return this.#times[this.#slot(this.#count - 1)]! + WINDOW_MS;
  }

  /** Where the `i`-th oldest counted entry is in the buffers. */
  #slot(i: number): number {
    return (this.#head + i) % this.#times.length;
  }

  #prune(now: number): void {
    const cutoff = now - WINDOW_MS;
    const times = this.#times;
    while (this.#count > 0 && times[this.#head]! <= cutoff) {
      this.#sum -= this.#tokens[this.#head]!;
      this.#head = (this.#head + 1) % times.length;
      this.#count--;
      this.#first++;
    }
    // Exact again once nothing is counted (settled figures may be fractional in tests).
    if (this.#count === 0) this.#sum = 0;
    // After a burst, the buffers give back what a quarter of their length no longer needs.
    if (times.length > SHRINK_ABOVE && this.#count * 4 <= times.length) {
      this.#resize(times.length / 2);
    }
  }

  /** Moves the counted entries, oldest first, into buffers of `capacity`. */
  #resize(capacity: number): void {
    const times = new Float64Array(capacity);
    const tokens = new Float64Array(capacity);
    for (let i = 0; i < this.#count; i++) {
      const at = this.#slot(i);
      times[i] = this.#times[at]!;
      tokens[i] = this.#tokens[at]!;
    }
    this.#times = times;
    this.#tokens = tokens;
    this.#head = 0;
  }
}
