/**
 * The `tpm` window: tokens of the requests admitted in the last 60 seconds. Each request adds
 * an entry at admission (its input estimate), which its release replaces with the real input +
 * output tokens; an entry counts at its admission time, so a request running longer than the
 * window no longer counts once it settles.
 * @module
 */
import { WINDOW_MS } from "./sliding_window.ts";

/** One request's tokens in the window. */
export interface TokenEntry {
  /** Unix milliseconds of its admission. */
  readonly time: number;
  tokens: number;
  /** False once the entry has left the window. */
  live: boolean;
}

/** Tokens counted over a sliding 60-second window. The limit is passed to each check (a policy
 * edit needs no resize). */
export class TokenWindow {
  #entries: TokenEntry[] = [];
  #head = 0;
  #sum = 0;

  /** Tokens counted at `now`. */
  used(now: number): number {
    this.#prune(now);
    return this.#sum;
  }

  /** Whether no entry is counted at `now`. */
  empty(now: number): boolean {
    this.#prune(now);
    return this.#head === this.#entries.length;
  }

  /** Milliseconds until `tokens` more fit under `limit` (0: now), if nothing else changes;
   * Infinity when `tokens` alone exceed it. */
  waitMs(now: number, tokens: number, limit: number): number {
    if (tokens > limit) return Infinity;
    this.#prune(now);
    let excess = this.#sum + tokens - limit;
    if (excess <= 0) return 0;
    for (let i = this.#head; i < this.#entries.length; i++) {
      const entry = this.#entries[i]!;
      excess -= entry.tokens;
      if (excess <= 0) return entry.time + WINDOW_MS - now;
    }
    return WINDOW_MS;
  }

  /** Counts `tokens` at `now`; the entry is handed back to {@link settle}. */
  add(now: number, tokens: number): TokenEntry {
    this.#prune(now);
    const last = this.#entries[this.#entries.length - 1];
    const time = last !== undefined && this.#head < this.#entries.length
      ? Math.max(now, last.time)
      : now;
    const entry: TokenEntry = { time, tokens, live: true };
    this.#entries.push(entry);
    this.#sum += tokens;
    return entry;
  }

  /** Replaces an entry's tokens with the real figure (nothing when it already left). */
  settle(entry: TokenEntry, tokens: number): void {
    if (!entry.live) return;
    this.#sum += tokens - entry.tokens;
    entry.tokens = tokens;
  }

  /** When every entry counted at `now` has left the window (`now` when none). */
  resetAt(now: number): number {
    this.#prune(now);
    const last = this.#entries[this.#entries.length - 1];
    return last === undefined || this.#head === this.#entries.length ? now : last.time + WINDOW_MS;
  }

  #prune(now: number): void {
    const cutoff = now - WINDOW_MS;
    const entries = this.#entries;
    while (this.#head < entries.length && entries[this.#head]!.time <= cutoff) {
      const entry = entries[this.#head++]!;
      entry.live = false;
      this.#sum -= entry.tokens;
    }
    if (this.#head === entries.length) {
      entries.length = 0;
      this.#head = 0;
      this.#sum = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= entries.length) {
      this.#entries = entries.slice(this.#head);
      this.#head = 0;
    }
  }
}
