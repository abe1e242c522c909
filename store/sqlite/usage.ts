/**
 * The `usage` ledger: append one row per request, report totals and groups per key.
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import {
  type Outcome,
  OUTCOMES,
  type UsageQuery,
  type UsageRecord,
  type UsageReport,
  type UsageTotals,
} from "../store.ts";
import { num, type Row, text } from "./rows.ts";

const SUMS = `
  COUNT(*) AS requests,
  COALESCE(SUM(input_tokens), 0) AS input_tokens,
  COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cached_tokens), 0) AS cached_tokens,
  COALESCE(SUM(cache_write_tokens), 0) AS cache_write_tokens,
  COALESCE(SUM(reasoning_tokens), 0) AS reasoning_tokens,
  COALESCE(SUM(images), 0) AS images,
  COALESCE(SUM(cost), 0.0) AS cost,
  ${OUTCOMES.map((o) => `COALESCE(SUM(outcome = '${o}'), 0) AS outcome_${o}`).join(",\n  ")}`;

const WINDOW = "WHERE key_id = ? AND time >= ? AND time < ?";

/** UTC calendar day of a unix-millisecond time, as `YYYY-MM-DD`. */
const DAY = "strftime('%Y-%m-%d', time / 1000, 'unixepoch')";

function toTotals(row: Row): UsageTotals {
  return {
    requests: num(row, "requests"),
    inputTokens: num(row, "input_tokens"),
    outputTokens: num(row, "output_tokens"),
    cachedTokens: num(row, "cached_tokens"),
    cacheWriteTokens: num(row, "cache_write_tokens"),
    reasoningTokens: num(row, "reasoning_tokens"),
    images: num(row, "images"),
    cost: num(row, "cost"),
    outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, num(row, `outcome_${o}`)])) as Record<
      Outcome,
      number
    >,
  };
}

/** The columns of one ledger row, in {@link values} order. `aborted` predates `outcome` and is
 * written from it, so older readers of the file keep working. */
const COLUMNS = [
  "request_id",
  "key_id",
  "model",
  "served_model",
  "upstream",
  "upstream_id",
  "route",
  "status",
  "outcome",
  "attempts",
  "input_tokens",
  "output_tokens",
  "cached_tokens",
  "cache_write_tokens",
  "reasoning_tokens",
  "images",
  "cost",
  "latency_ms",
  "first_byte_ms",
  "stream",
  "aborted",
  "time",
];

/** Rows per multi-row INSERT: one statement step for many rows costs about half as much per
 * row as one step each. (22 columns × 32 rows stays far below SQLite's 32,766 variables.) */
const ROWS_PER_INSERT = 32;

/** An INSERT of `rows` rows. */
function insertRows(rows: number): string {
  const row = `(${COLUMNS.map(() => "?").join(", ")})`;
  return `INSERT INTO usage (${COLUMNS.join(", ")}) VALUES ${new Array(rows).fill(row).join(", ")}`;
}

/** The bound values of one row. */
function values(r: UsageRecord): (string | number | null)[] {
  return [
    r.requestId,
    r.keyId,
    r.model,
    r.servedModel,
    r.upstream,
    r.upstreamId,
    r.route,
    r.status,
    r.outcome,
    r.attempts,
    r.inputTokens,
    r.outputTokens,
    r.cachedTokens,
    r.cacheWriteTokens,
    r.reasoningTokens,
    r.images,
    r.cost,
    r.latencyMs,
    r.firstByteMs,
    r.stream ? 1 : 0,
    r.outcome === "client_disconnect" ? 1 : 0,
    r.time,
  ];
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
  readonly #totals: StatementSync;
  readonly #byModel: StatementSync;
  readonly #byDay: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#insert = db.prepare(insertRows(1));
    this.#insertMany = db.prepare(insertRows(ROWS_PER_INSERT));
    this.#totals = db.prepare(`SELECT ${SUMS} FROM usage ${WINDOW}`);
    this.#byModel = db.prepare(
      `SELECT model AS group_key, ${SUMS} FROM usage ${WINDOW} GROUP BY model ORDER BY model`,
    );
    this.#byDay = db.prepare(
      `SELECT ${DAY} AS group_key, ${SUMS} FROM usage ${WINDOW} GROUP BY group_key ` +
        "ORDER BY group_key",
    );
  }

  /** Queues one ledger row; it is written within a few milliseconds, and before any report. */
  record(r: UsageRecord): void {
    this.#pending.push(r);
    this.#timer ??= setTimeout(() => this.flush(), BATCH_DELAY_MS);
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
  }

  /** Totals for one key over `[start, end)`, plus groups sorted by key when asked. */
  report(query: UsageQuery): UsageReport {
    this.flush();
    const args = [query.keyId, query.start, query.end] as const;
    // An aggregate without GROUP BY always yields exactly one row.
    const totalsRow = this.#totals.get(...args);
    if (totalsRow === undefined) throw new Error("usage totals query returned no row");
    const totals = toTotals(totalsRow);
    if (query.groupBy === undefined) return { totals };
    const statement = query.groupBy === "model" ? this.#byModel : this.#byDay;
    const groups = statement.all(...args).map((row) => ({
      key: text(row, "group_key"),
      ...toTotals(row),
    }));
    return { totals, groups };
  }
}
