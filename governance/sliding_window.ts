/**
 * The `rpm` window: an exact sliding window over admission times. A request admitted at `t`
 * counts until `t + 60 s` (exclusive), so in no 60-second interval are more than `limit`
 * requests admitted — unlike a fixed per-minute counter, which lets 2 × limit through across a
 * minute boundary.
 * @module
 */

/** The length of every rate window, in milliseconds. */
export const WINDOW_MS = 60_000;

const INITIAL_CAPACITY = 16;

/**
 * A ring buffer of the last admission times still inside the window, at most `limit` of them.
 * Admitting checks that fewer than `limit` remain after dropping those 60 s old or more, which
 * is the same as "the oldest of the last `limit` admissions is at least 60 s old": O(1)
 * amortized. The buffer grows by doubling up to `limit`, so a large limit costs memory only
 * when it is used.
 */
export class RequestWindow {
  #limit: number;
  #times: Float64Array;
  #head = 0;
  #count = 0;

  /** A window admitting `limit` requests per 60 s. */
  constructor(limit: number) {
    this.#limit = limit;
    this.#times = new Float64Array(Math.min(limit, INITIAL_CAPACITY));
  }

  /** Requests allowed per 60 s. */
  get limit(): number {
    return this.#limit;
  }

  /** Changes the limit (a policy edit), keeping the newest admission times that still fit. */
  resize(limit: number): void {
    if (limit === this.#limit) return;
    const keep = Math.min(this.#count, limit);
    const times = new Float64Array(Math.max(keep, Math.min(limit, INITIAL_CAPACITY)));
    for (let i = 0; i < keep; i++) times[i] = this.#at(this.#count - keep + i);
    this.#times = times;
    this.#head = 0;
    this.#count = keep;
    this.#limit = limit;
  }

  /** Admissions counted at `now` (those less than 60 s old). */
  count(now: number): number {
    this.#prune(now);
    return this.#count;
  }

  /** Milliseconds until one more request may be admitted (0: now). */
  waitMs(now: number): number {
    this.#prune(now);
    if (this.#count < this.#limit) return 0;
    return this.#at(this.#count - this.#limit) + WINDOW_MS - now;
  }

  /** Records an admission at `now` (call after {@link waitMs} said 0). Times are kept in order:
   * a clock that stepped back records the newest time again. */
  push(now: number): void {
    this.#prune(now);
    const time = this.#count > 0 ? Math.max(now, this.#at(this.#count - 1)) : now;
    if (this.#count >= this.#limit) {
      this.#head = (this.#head + 1) % this.#times.length;
      this.#count--;
    }
    if (this.#count === this.#times.length) this.#grow();
    this.#times[(this.#head + this.#count) % this.#times.length] = time;
    this.#count++;
  }

  /** When every admission counted at `now` has left the window (`now` when none is counted):
   * when the limit is fully replenished. */
  resetAt(now: number): number {
    this.#prune(now);
    return this.#count === 0 ? now : this.#at(this.#count - 1) + WINDOW_MS;
  }

  /** The `i`-th oldest time held. */
  #at(i: number): number {
    return this.#times[(this.#head + i) % this.#times.length]!;
  }

  #prune(now: number): void {
    const cutoff = now - WINDOW_MS;
    while (this.#count > 0 && this.#times[this.#head]! <= cutoff) {
      this.#head = (this.#head + 1) % this.#times.length;
      this.#count--;
    }
  }

  #grow(): void {
    const times = new Float64Array(Math.min(this.#limit, Math.max(1, this.#times.length * 2)));
    for (let i = 0; i < this.#count; i++) times[i] = this.#at(i);
    this.#times = times;
    this.#head = 0;
  }
}
