/**
 * Checkpoints of a WAL database file, off the event loop. SQLite's default is for the writing
 * connection to copy the log back into the file at the commit that takes it past 1,000 pages:
 * under load that is the gateway's ledger commit every second or so, and the copy with its two
 * fsyncs held the event loop 10–25 ms (every request and open stream waited). Here, after a
 * commit, at most every {@link CHECKPOINT_INTERVAL_MS}, the writer asks a worker
 * (`checkpoint_worker.ts`) to copy the log on its own connection. A copy made while commits keep
 * landing never leaves the log fully copied, and only a fully copied log is started over from
 * the beginning (else the `-wal` file grows without end: 30 MB a second under load), so when the
 * worker is done the writer copies the few frames written meanwhile itself (1–3 ms, its two
 * fsyncs mostly), and its next transaction starts the log over. The worker is idle until asked
 * again: it holds no lock then, or the log could not be started over.
 *
 * The writer's own automatic checkpoint stays on as a backstop, at {@link BACKSTOP_PAGES}
 * instead of 1,000: with one writer the log starts over long before that. With several (the
 * `--workers` threads, one connection each) another writer's commit often lands between a
 * catch-up and the next transaction, and without the backstop the log reached 126–376 MB with 4
 * threads at 7,000 rows a second (12–18 MB with it, in `wal_checkpointer_test.ts`); the backstop's
 * checkpoints copy only what the workers have not.
 * If the worker fails or stops answering, the writer goes back to SQLite's 1,000 pages.
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** What the writer tells the worker. */
export type CheckpointCommand =
  | { type: "open"; path: string }
  | { type: "checkpoint" }
  | { type: "close" };

/** What the worker tells the writer. */
export type CheckpointReport =
  | { type: "opened" }
  | { type: "checkpointed" }
  | { type: "failed"; message: string }
  | { type: "closed" };

/** The least time between two checkpoints the writer asks for. */
export const CHECKPOINT_INTERVAL_MS = 200;

/** SQLite's own threshold, restored when the worker fails. */
const AUTOCHECKPOINT_PAGES = 1000;

/** The writer's own checkpoint threshold while the worker runs: 8 MB of log. */
export const BACKSTOP_PAGES = 2000;

/** A checkpoint not answered in this long means a stuck worker: the writer takes checkpoints
 * back (until then only the backstop bounds its log). */
const ANSWER_TIMEOUT_MS = 5_000;

/** Settings of a {@link WalCheckpointer}; the defaults are the gateway's. */
export interface CheckpointerOptions {
  /** The least time between two checkpoints asked for (default {@link CHECKPOINT_INTERVAL_MS}). */
  intervalMs?: number;
  /** When an unanswered checkpoint means a stuck worker (default 5 s). */
  answerTimeoutMs?: number;
  /** The worker's module (default `checkpoint_worker.ts`; tests pass a misbehaving one). */
  workerUrl?: URL;
  /** Told once, with what happened, when the writer takes checkpoints back. */
  onFallback?: (message: string) => void;
}

/** How long `close` waits for the worker to close its connection before ending it. */
const CLOSE_TIMEOUT_MS = 2000;

/** The checkpoints of one writing connection to the file at `path`. */
export class WalCheckpointer {
  readonly #db: DatabaseSync;
  readonly #path: string;
  readonly #intervalMs: number;
  readonly #answerTimeoutMs: number;
  readonly #workerUrl: URL;
  readonly #onFallback: (message: string) => void;
  #worker: Worker | null = null;
  #closed: Promise<void> | null = null;
  #onClosed: (() => void) | null = null;
  /** Set once the worker failed: the writer checkpoints by itself again. */
  #failed = false;
  /** A checkpoint was asked for and the worker has not answered; also set until the worker has
   * opened the file (SQLite checkpoints by itself meanwhile). */
  #asked = true;
  #lastAsked = -Infinity;

  /** `path` is the file `db` is open on, which the worker opens too. */
  constructor(db: DatabaseSync, path: string, options: CheckpointerOptions = {}) {
    this.#db = db;
    this.#path = path;
    this.#intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
    this.#answerTimeoutMs = options.answerTimeoutMs ?? ANSWER_TIMEOUT_MS;
    this.#workerUrl = options.workerUrl ?? new URL("./checkpoint_worker.ts", import.meta.url);
    this.#onFallback = options.onFallback ?? (() => {});
  }

  /** Whether the worker is running (started, not failed, not closed). */
  get active(): boolean {
    return this.#worker !== null;
  }

  /** After a commit: starts the worker the first time (so a store that never writes the ledger,
   * a command-line tool say, never starts one), then asks it for a checkpoint when the last
   * one is done and far enough behind. */
  committed(): void {
    if (this.#failed || this.#closed !== null) return;
    this.start();
    const now = performance.now();
    if (
      this.#asked && this.#lastAsked !== -Infinity && now - this.#lastAsked > this.#answerTimeoutMs
    ) {
      this.#fail(`it did not answer a checkpoint in ${this.#answerTimeoutMs / 1000} s`);
      return;
    }
    if (this.#asked || now - this.#lastAsked < this.#intervalMs) return;
    this.#asked = true;
    this.#lastAsked = now;
    this.#post({ type: "checkpoint" });
  }

  /** Starts the worker, unless it runs, failed or was closed. */
  start(): void {
    if (this.#worker !== null || this.#failed || this.#closed !== null) return;
    const worker = new Worker(this.#workerUrl, { type: "module" });
    worker.onmessage = (event: MessageEvent<CheckpointReport>) => this.#receive(event.data);
    worker.onerror = (event) => {
      // Handled here: the gateway goes on with SQLite's own checkpoints.
      event.preventDefault();
      this.#fail(event.message);
    };
    this.#worker = worker;
    this.#post({ type: "open", path: this.#path });
  }

  /** Stops the worker (it closes its connection first); no worker starts after. The writer's
   * own close then checkpoints what is left, as SQLite does for the last connection. */
  close(): Promise<void> {
    if (this.#closed !== null) return this.#closed;
    const worker = this.#worker;
    if (worker === null) return this.#closed = Promise.resolve();
    this.#closed = new Promise<void>((resolve) => {
      const timeout = setTimeout(finish, CLOSE_TIMEOUT_MS);
      function finish() {
        clearTimeout(timeout);
        worker!.terminate();
        resolve();
      }
      this.#onClosed = finish;
      this.#post({ type: "close" });
    });
    return this.#closed.finally(() => (this.#worker = null));
  }

  #post(command: CheckpointCommand): void {
    this.#worker?.postMessage(command);
  }

  #receive(report: CheckpointReport): void {
    switch (report.type) {
      case "opened":
        if (!this.#db.isOpen || this.#closed !== null) break;
        this.#autocheckpoint(BACKSTOP_PAGES);
        this.#asked = false;
        break;
      case "checkpointed":
        this.#asked = false;
        // Between two of this thread's tasks no transaction is open: every database call here
        // is synchronous.
        if (!this.#db.isOpen || this.#closed !== null) break;
        try {
          this.#db.exec("PRAGMA wal_checkpoint(PASSIVE)");
        } catch (error) {
          // Whatever failed here would fail SQLite's own checkpoint too: leave it to SQLite.
          this.#fail(
            `the writer's catch-up failed: ${error instanceof Error ? error.message : error}`,
          );
        }
        break;
      case "failed":
        this.#fail(report.message);
        break;
      case "closed":
        this.#onClosed?.();
        break;
      default: {
        const unknown: never = report;
        throw new Error(`checkpoint worker: unknown report ${JSON.stringify(unknown)}`);
      }
    }
  }

  #fail(reason: string): void {
    this.#failed = true;
    this.#worker?.terminate();
    this.#worker = null;
    this.#onClosed?.();
    this.#autocheckpoint(AUTOCHECKPOINT_PAGES);
    this.#onFallback(
      `sqlite: the checkpoint worker of ${this.#path} stopped (${reason}); SQLite checkpoints ` +
        "inside the ledger's commits again, pausing requests 10-25 ms about once a second " +
        "under load. Restart gatehouse to try the worker again.",
    );
  }

  /** Sets the writer's own checkpoint threshold (a pragma of the connection: no I/O). */
  #autocheckpoint(pages: number): void {
    try {
      if (this.#db.isOpen) this.#db.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
    } catch {
      // Only a closed or broken connection refuses it, and then no commit follows.
    }
  }
}
