/**
 * The fake upstream's clock for paced streams: every stream's next chunk is a due time in one
 * heap, fired from one timer set for the earliest. 10,000 streams writing a chunk every 500 ms
 * would otherwise set 20,000 timers a second; the upstream shares the bench's two cores with the
 * gateway, so what it spends is taken from what is measured.
 * @module
 */

interface Due {
  at: number;
  fire: () => void;
}

/** Due callbacks, earliest first, fired from one timer. */
export class Pacer {
  #heap: Due[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  /** Pending callbacks. */
  get size(): number {
    return this.#heap.length;
  }

  /** Calls `fire` at `at` (`performance.now()` time) or as soon after as the loop allows. */
  at(at: number, fire: () => void): void {
    const heap = this.#heap;
    heap.push({ at, fire });
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.at <= heap[i]!.at) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
    if (at < this.#timerAt) this.#arm(at);
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#run(), Math.max(0, at - performance.now()));
  }

  #run(): void {
    this.#timerAt = Infinity;
    this.#timer = undefined;
    const now = performance.now();
    // Fired callbacks may add more (a stream's next chunk): those due now run in this turn too.
    while (this.#heap.length > 0 && this.#heap[0]!.at <= now) this.#pop().fire();
    const next = this.#heap[0];
    if (next !== undefined) this.#arm(next.at);
  }

  #pop(): Due {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && heap[left]!.at < heap[least]!.at) least = left;
        if (right < heap.length && heap[right]!.at < heap[least]!.at) least = right;
        if (least === i) break;
        [heap[least], heap[i]] = [heap[i]!, heap[least]!];
        i = least;
      }
    }
    return top;
  }
}
