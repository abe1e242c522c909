/**
 * {@link CallDeadlines}: fails a call that has no answer within a fixed time, with ONE timer for
 * all of them instead of one per call. The limits' Redis calls need such a bound (a dead
 * connection must not hang admissions: `failover.ts`); ioredis's own `commandTimeout` arms and
 * clears a timer per command, which cost more CPU than the rest of the client's work on the
 * admission path.
 *
 * Every call gets the same allowance, so deadlines come in the order the calls were made: the
 * timer only ever waits for the oldest call still open, and is re-armed for the next one when
 * it fires. A call that failed its deadline is rejected with the error ioredis gave ("Command
 * timed out"); its late answer is ignored.
 * @module
 */

interface Open {
  /** `performance.now()` past which the call fails. */
  at: number;
  fail: ((error: Error) => void) | null;
}

/** The message of a call that passed its deadline (ioredis's own). */
export const TIMED_OUT = "Command timed out";

/** See the module doc. */
export class CallDeadlines {
  readonly #ms: number;
  /** Calls in the order they were made (so by deadline); settled ones are skipped lazily. */
  #open: Open[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;

  /** Deadlines `ms` after each call. */
  constructor(ms: number) {
    this.#ms = ms;
  }

  /** `call`'s outcome, or a rejection once it has been open for the allowance. */
  bound<T>(call: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const open: Open = { at: performance.now() + this.#ms, fail: reject };
      this.#open.push(open);
      this.#timer ??= this.#arm(this.#ms);
      call.then(
        (value) => {
          open.fail = null;
          resolve(value);
        },
        (error) => {
          open.fail = null;
          reject(error);
        },
      );
    });
  }

  /** Calls still open (failed ones excluded), for tests. */
  get pending(): number {
    let count = 0;
    for (let i = this.#head; i < this.#open.length; i++) if (this.#open[i]!.fail) count++;
    return count;
  }

  /** Stops the timer; calls still open are no longer bounded. */
  close(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#open = [];
    this.#head = 0;
  }

  #arm(ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => this.#expire(), Math.max(0, ms));
    // The bound alone must not keep a process alive.
    if (typeof timer === "number") Deno.unrefTimer(timer);
    return timer;
  }

  #expire(): void {
    this.#timer = null;
    const now = performance.now();
    const open = this.#open;
    let head = this.#head;
    for (; head < open.length; head++) {
      const call = open[head]!;
      if (call.fail === null) continue;
      if (call.at > now) break;
      const fail = call.fail;
      call.fail = null;
      fail(new Error(TIMED_OUT));
    }
    if (head === open.length) {
      this.#open = [];
      this.#head = 0;
      return;
    }
    const next = open[head]!;
    // Drop the settled prefix now and then, so the array does not grow with the traffic.
    if (head > 1_024 && head * 2 > open.length) {
      this.#open = open.slice(head);
      head = 0;
    }
    this.#head = head;
    this.#timer = this.#arm(next.at - now);
  }
}
