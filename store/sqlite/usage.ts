/**
 * The `usage` ledger: append one row per request, written in batches (`usage_report.ts` reads
 * it).
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { UsageRecord } from "../store.ts";
import { LEDGER_COLUMNS, ledgerValues } from "../ledger_rows.ts";

/** The columns of one ledger row, in {@link values} order: the shared ones, then `aborted`. It
 * predates `outcome` and is written from it, so older readers of the file keep working. */
const COLUMNS = [...LEDGER_COLUMNS, "aborted"];

/** Rows per multi-row INSERT: one statement step for many rows costs about half as much per
 * row as one step each. (23 columns × 32 rows stays far below SQLite's 32,766 variables.) */
const ROWS_PER_INSERT = 32;

/** An INSERT of `rows` rows. */
function insertRows(rows: number): string {
  const row = `(${COLUMNS.map(() => "?").join(", ")})`;
  return `INSERT INTO usage (${COLUMNS.join(", ")}) VALUES ${new Array(rows).fill(row).join(", ")}`;
}

/** SQLite stores a boolean as 0 or 1. */
const flag = (value: boolean) => value ? 1 : 0;

/** The bound values of one row: the shared ones, then the legacy `aborted`. */
function values(r: UsageRecord): (string | number | null)[] {
  const row = ledgerValues(r, flag);
  row.push(r.outcome === "client_disconnect" ? 1 : 0);
  return row;
}

/** How long a ledger row may wait for companions before its batch is written. */
const BATCH_DELAY_MS = 5;

/** Prepared statements over `usage`, created once per connection. */
export class UsageLedger {
  readonly #db: DatabaseSync;
  /** Rows waiting for the next batch: one transaction per batch instead of one commit per
   * request (a commit costs ~15 µs on a WAL file; a batched row ~2 µs). */
  #pending: UsageRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #insert: StatementSync;
  readonly #insertMany: StatementSync;
  readonly #onCommit: () => void;

  /** `onCommit` runs after each batch is committed (`wal_checkpointer.ts` asks for checkpoints
   * there). */
  constructor(db: DatabaseSync, onCommit: () => void = () => {}) {
    this.#db = db;
    this.#onCommit = onCommit;
    this.#insert = db.prepare(insertRows(1));
    this.#insertMany = db.prepare(insertRows(ROWS_PER_INSERT));
  }

  /** Queues one ledger row; it is written within a few milliseconds, and before any report. */
  record(r: UsageRecord): void {
    this.#pending.push(r);
    this.#timer ??= setTimeout(() => this.flush(), BATCH_DELAY_MS);
  }

  /** The rows queued and not yet written, oldest first. */
  get pending(): readonly UsageRecord[] {
    return this.#pending;
  }

  /** Writes every queued row in one transaction. */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#pending.length === 0 || !this.#db.isOpen) return;
    const rows = this.#pending;
    this.#pending = [];
    this.#db.exec("BEGIN");
    try {
      let next = 0;
      for (; next + ROWS_PER_INSERT <= rows.length; next += ROWS_PER_INSERT) {
        this.#insertMany.run(...rows.slice(next, next + ROWS_PER_INSERT).flatMap(values));
      }
      for (; next < rows.length; next++) this.#insert.run(...values(rows[next]!));
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
    this.#onCommit();
  }
}
