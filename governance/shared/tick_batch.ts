/**
 * {@link TickBatch}: gathers the calls made in one turn of the event loop and runs them as one
 * (the Redis limits send every admission of a turn in one script call, every release in
 * another). Each caller still gets its own answer, in the order of the calls. A batch runs at
 * `process.nextTick`, the moment ioredis's auto-pipelining writes the commands of the turn, so
 * batching costs a call no extra wait.
 * @module
 */
import { nextTick } from "node:process";

/** Calls past this many start a new batch (a script's keys and arguments stay bounded). */
export const MAX_BATCH = 256;

interface Waiting<R> {
  resolve(value: R): void;
  reject(error: unknown): void;
}

/** See the module doc. */
export class TickBatch<C, R> {
  readonly #run: (calls: C[]) => Promise<R[]>;
  readonly #idOf: (call: C) => string;
  #calls: C[] = [];
  #waiting: Waiting<R>[] = [];
  #ids = new Set<string>();
  #scheduled = false;

  readonly #before: () => void;

  /** `run` answers a batch, one answer per call in order; `idOf` names a call's request: a
   * request already in the batch starts a new one (the scripts take each request once);
   * `before` runs right before each batch (another batcher's {@link flush}, to go first). */
  constructor(
    run: (calls: C[]) => Promise<R[]>,
    idOf: (call: C) => string,
    before: () => void = () => {},
  ) {
    this.#run = run;
    this.#idOf = idOf;
    this.#before = before;
  }

  /** `call`'s answer, once its batch has run. */
  add(call: C): Promise<R> {
    const id = this.#idOf(call);
    if (this.#ids.has(id) || this.#calls.length >= MAX_BATCH) this.flush();
    if (!this.#scheduled) {
      this.#scheduled = true;
      nextTick(() => {
        this.#scheduled = false;
        this.flush();
      });
    }
    this.#ids.add(id);
    this.#calls.push(call);
    return new Promise<R>((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  /** Runs the calls waiting now as one batch (the turn's end does it otherwise). */
  flush(): void {
    this.#before();
    if (this.#calls.length === 0) return;
    const calls = this.#calls;
    const waiting = this.#waiting;
    this.#calls = [];
    this.#waiting = [];
    this.#ids.clear();
    let answers: Promise<R[]>;
    try {
      answers = this.#run(calls);
    } catch (error) {
      answers = Promise.reject(error);
    }
    answers.then(
      (values) => {
        for (let i = 0; i < waiting.length; i++) {
          if (i < values.length) waiting[i]!.resolve(values[i]!);
          else {waiting[i]!.reject(
              new Error(`a batch of ${calls.length} got ${values.length} answers`),
            );}
        }
      },
      (error) => {
        for (const w of waiting) w.reject(error);
      },
    );
  }
}
