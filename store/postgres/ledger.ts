/**
 * The Postgres ledger's writer: rows are queued and written in batches 25 ms after the first
 * (SQLite's wait 5 ms; {@link BATCH_DELAY_MS} says why this one waits longer): one statement per
 * batch, its rows bound as one JSON parameter (`ledger_json.ts`). A write that fails — the
 * server restarting, the network gone — keeps its rows queued and is retried with a backoff; the
 * queue is bounded, and what happens is logged once per change of state, never silently.
 *
 * A batch is written at most once: it claims its id in `ledger_batches` in the same statement
 * (or, for a batch too large for one, the same transaction), and a failed batch is retried as
 * it was, under the same id. So a commit that succeeded but
 * whose answer the cut connection lost is found done on the retry, not billed twice.
 * @module
 */
import type { StoreLogger } from "../store_logger.ts";
import type { UsageRecord } from "../store.ts";
import { CLAIM_AND_INSERT, CLAIM_BATCH, INSERT, ledgerJson } from "./ledger_json.ts";
import type { SqlClient, SqlQueries } from "./sql_client.ts";

/** Options for {@link PostgresLedger}. */
export interface LedgerOptions {
  log: StoreLogger;
  /** The most rows kept while writes fail; beyond it the oldest are dropped (default 100 000). */
  maxQueued?: number;
  /** The first retry's delay in ms, doubled after each failure up to `retryMaxMs` (500). */
  retryMs?: number;
  /** The longest retry delay in ms (5 000). */
  retryMaxMs?: number;
  /** How long one batch's transaction may take before it counts as failed, ms (10 000). */
  writeTimeoutMs?: number;
}

/** How long a row may wait for companions before its batch is written. Each batch is a round
 * trip to another process and a commit there, so its fixed cost is paid in two processes that
 * share the gateway's cores. At 1,500 rows a second on a 2-core box, the ledger cost the
 * gateway process 79-84 and Postgres 99-101 µs of CPU a row at 5 ms (SQLite's wait, where a
 * batch is an in-process commit), and 36-40 and 52-55 at 25 ms. Through the gateway with every
 * policy on Postgres + Redis (`deno task bench --only=scale --configs=c`, alternated), chat
 * JSON went from 0.33 to 0.37 of the proxy's throughput and chat streams from 0.81-0.90 to
 * 0.95-0.97. A crash can lose the rows of the last 25 ms; reads still see queued rows. */
const BATCH_DELAY_MS = 25;

/** Batch ids are kept this long (a retry comes within seconds; a day is ample). */
const BATCH_ID_KEEP_MS = 24 * 3_600_000;
/** How often the writer prunes old batch ids. */
const PRUNE_EVERY_MS = 3_600_000;

/** A batch of rows and the id it is written under. */
interface Batch {
  id: string;
  rows: UsageRecord[];
}

/** The most rows one INSERT carries (a batch after an outage can hold 100 000). */
const ROWS_PER_INSERT = 1_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `work`'s value, or `late` once `ms` have passed. */
async function within<T>(ms: number, work: Promise<T>, late: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Queued, batched, retried ledger writes over one client. */
export class PostgresLedger {
  readonly #client: SqlClient;
  readonly #log: StoreLogger;
  readonly #maxQueued: number;
  readonly #retryMs: number;
  readonly #retryMaxMs: number;
  readonly #writeTimeoutMs: number;
  /** Rows not yet in a batch, oldest first. */
  #pending: UsageRecord[] = [];
  /** The batch being written, or the one that failed and is retried as it is (older rows). */
  #batch: Batch | null = null;
  #lastPrune = 0;
  /** A transaction is writing {@link #batch}: its rows must not change under it. */
  #writing = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The delay before the next retry; 0 while writes succeed. */
  #retryDelay = 0;
  /** One write or one read of the queue at a time, so a row is never both queued and written
   * in what a reader sees. */
  #lock: Promise<unknown> = Promise.resolve();
  #closed = false;
  /** Rows dropped over the bound and not yet logged. */
  #dropped = 0;

  constructor(client: SqlClient, options: LedgerOptions) {
    this.#client = client;
    this.#log = options.log;
    this.#maxQueued = options.maxQueued ?? 100_000;
    this.#retryMs = options.retryMs ?? 500;
    this.#retryMaxMs = options.retryMaxMs ?? 5_000;
    this.#writeTimeoutMs = options.writeTimeoutMs ?? 10_000;
  }

  /** Queues a row; it is written within about 25 ms while the database answers. */
  record(r: UsageRecord): void {
    if (this.#closed) throw new Error("the store is closed");
    this.#pending.push(r);
    const excess = this.queued - this.#maxQueued;
    // Counted here, logged at the next write attempt: one line per retry, not one per row. The
    // oldest go first: a failed batch's (it keeps its id, so it is still written at most once).
    if (excess > 0) this.#dropped += this.#dropOldest(excess);
    if (this.#timer === null && this.#retryDelay === 0) {
      this.#timer = setTimeout(() => this.#flushNow(), BATCH_DELAY_MS);
    }
  }

  /** How many rows wait to be written. */
  get queued(): number {
    return this.#pending.length + (this.#batch?.rows.length ?? 0);
  }

  #dropOldest(count: number): number {
    const batch = this.#batch;
    // A batch being written cannot shrink under its transaction; only a failed one waits here.
    const fromBatch = batch !== null && !this.#writing
      ? batch.rows.splice(0, Math.min(count, batch.rows.length)).length
      : 0;
    return fromBatch + this.#pending.splice(0, Math.min(count - fromBatch, this.#pending.length))
      .length;
  }

  /** Runs `read` with the rows still queued, while no batch is being written (so a row is either
   * in the database or in `queued`, never both or neither). */
  withQueued<T>(read: (queued: readonly UsageRecord[]) => Promise<T>): Promise<T> {
    return this.#exclusive(() =>
      read(this.#batch === null ? this.#pending : [...this.#batch.rows, ...this.#pending])
    );
  }

  /** Writes every queued row now; true when none is left queued. Never throws. */
  async flush(): Promise<boolean> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#exclusive(() => this.#write());
    return this.queued === 0;
  }

  /** Stops taking rows and keeps trying to write the queue (with the retry delays) for at most
   * `deadlineMs`; logs how many rows were lost when it fails. */
  async close(deadlineMs: number): Promise<void> {
    this.#closed = true;
    const end = performance.now() + deadlineMs;
    let written = false;
    // A write right after the server dropped the pool's connections fails once per dead
    // connection: the queue gets the whole deadline, not one attempt.
    for (let left = deadlineMs; left > 0 && !written; left = end - performance.now()) {
      written = await within(left, this.flush(), false);
      if (!written) await within(end - performance.now(), sleep(this.#retryDelay), undefined);
    }
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#reportDropped();
    if (!written && this.queued > 0) {
      this.#log(
        "error",
        `ledger: ${this.queued} usage row(s) could not be written to Postgres before closing ` +
          "and are lost",
      );
    }
  }

  #reportDropped(): void {
    if (this.#dropped === 0) return;
    this.#log(
      "error",
      `ledger: ${this.#dropped} queued usage row(s) dropped (oldest first): Postgres writes ` +
        `keep failing and the queue holds at most ${this.#maxQueued} rows`,
    );
    this.#dropped = 0;
  }

  #flushNow(): void {
    this.#timer = null;
    void this.#exclusive(() => this.#write());
  }

  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(work);
    this.#lock = run.catch(() => {});
    return run;
  }

  /** One attempt to write the queue: the failed batch first, as it was, then a new batch of the
   * rows queued since. On failure the batch waits for a retry; the first failure warns, the first
   * success after failures tells. */
  async #write(): Promise<void> {
    this.#reportDropped();
    let written = 0;
    // At most the retried batch and one new one: readers of the queue wait for this lock.
    for (let round = 0; round < 2; round++) {
      if (this.#batch === null) {
        if (this.#pending.length === 0) break;
        this.#batch = { id: crypto.randomUUID(), rows: this.#pending };
        this.#pending = [];
      }
      const batch = this.#batch;
      this.#writing = true;
      try {
        await this.#transaction(batch);
      } catch (error) {
        this.#failed(error);
        return;
      } finally {
        this.#writing = false;
      }
      this.#batch = null;
      written += batch.rows.length;
    }
    if (this.#retryDelay !== 0) {
      this.#retryDelay = 0;
      this.#log("info", `ledger: Postgres writes succeed again; ${written} queued row(s) written`);
    }
    if (this.#pending.length > 0 && this.#timer === null && !this.#closed) {
      this.#timer = setTimeout(() => this.#flushNow(), BATCH_DELAY_MS);
    }
  }

  /**
   * Writes `batch` (one statement, or one transaction: {@link #write}), or fails after the
   * write timeout. A connection the server cut mid-write can leave the driver's promise pending
   * for good (postgres@3.4.9 under Deno, see `driver_guard.ts`); a write that never ends would
   * hold the queue forever. The batch keeps its id, so if that write did commit after all, the
   * retry finds it claimed.
   */
  async #transaction(batch: Batch): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A copy: a write given up on may still be reading its rows while the queue bound drops the
    // oldest of the batch for the retry.
    const write = this.#store({ id: batch.id, rows: batch.rows.slice() });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.#writeTimeoutMs} ms`)),
        this.#writeTimeoutMs,
      );
    });
    try {
      await Promise.race([write, timeout]);
    } finally {
      clearTimeout(timer);
      write.catch(() => {});
    }
  }

  /** A batch that fits one INSERT is claimed and written by one statement (atomic by itself: no
   * BEGIN and COMMIT round trips); a larger one, or one that also prunes old batch ids, in one
   * transaction. */
  async #store(batch: Batch): Promise<void> {
    const now = Date.now();
    const prune = now - this.#lastPrune >= PRUNE_EVERY_MS;
    if (prune) this.#lastPrune = now;
    if (!prune && batch.rows.length <= ROWS_PER_INSERT) {
      await this.#client.query(CLAIM_AND_INSERT, [batch.id, now, ledgerJson(batch.rows)]);
      return;
    }
    await this.#client.transaction((tx) => this.#insert(tx, batch, now, prune));
  }

  /** Writes `batch` in `tx` unless its id was claimed before (then it was written). */
  async #insert(tx: SqlQueries, batch: Batch, now: number, prune: boolean): Promise<void> {
    if (prune) {
      await tx.query("DELETE FROM ledger_batches WHERE written_at < $1", [now - BATCH_ID_KEEP_MS]);
    }
    const claimed = await tx.query(CLAIM_BATCH, [batch.id, now]);
    if (claimed.length === 0) return;
    const rows = batch.rows;
    for (let next = 0; next < rows.length; next += ROWS_PER_INSERT) {
      await tx.query(INSERT, [ledgerJson(rows.slice(next, next + ROWS_PER_INSERT))]);
    }
  }

  #failed(error: unknown): void {
    if (this.#retryDelay === 0) {
      this.#log(
        "warn",
        `ledger: writing usage rows to Postgres failed (${messageOf(error)}); ` +
          `${this.queued} row(s) queued in memory, retrying`,
      );
    }
    this.#retryDelay = this.#retryDelay === 0
      ? this.#retryMs
      : Math.min(this.#retryDelay * 2, this.#retryMaxMs);
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = this.#closed ? null : setTimeout(() => this.#flushNow(), this.#retryDelay);
  }
}
