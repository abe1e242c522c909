/**
 * Reading the `usage` ledger: reports (totals, and groups by model, day, key or team) over one
 * key's, one team's or every key's rows, and the spend of a key or team since a time.
 *
 * A team's rows are those of the keys currently in it (`api_keys.team`); grouping by team uses
 * each key's current team, `""` for keys without one. A key's rows are found through the
 * `usage_key_time` index; a team's through the same index, key by key.
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { SeriesQuery, SpendQuery, UsageQuery, UsageReport, UsageSeries } from "../store.ts";
import { num, SQLITE_CELLS, text } from "./rows.ts";
import { SERIES_STATS_SQL, seriesArgs, seriesFrom, seriesSumsSql } from "../series_sql.ts";
import type { UsageLedger } from "./usage.ts";
import { queuedSpends } from "../ledger_rows.ts";
import { groupKeys, usageSums, usageTotalsFrom } from "../report_rows.ts";

const SUMS = usageSums((o) => `COALESCE(SUM(outcome = '${o}'), 0)`, "0.0");

/** The group key of each grouping. */
const GROUP_KEYS = groupKeys("strftime('%Y-%m-%d', time / 1000, 'unixepoch')");

const TEAM_MEMBERS = "SELECT id FROM api_keys WHERE team = ?";

/** Which rows: one key's, one team's keys', both (their intersection), or every row. */
interface RowFilter {
  keyId?: string;
  team?: string;
}

/** The WHERE clause and its leading arguments for `filter`, then `time >= ?` (and `time < ?`
 * when `bounded`). */
function where(filter: RowFilter, bounded: boolean): { sql: string; args: string[] } {
  const conditions: string[] = [];
  const args: string[] = [];
  if (filter.keyId !== undefined) {
    conditions.push("key_id = ?");
    args.push(filter.keyId);
  }
  if (filter.team !== undefined) {
    conditions.push(`key_id IN (${TEAM_MEMBERS})`);
    args.push(filter.team);
  }
  conditions.push("time >= ?");
  if (bounded) conditions.push("time < ?");
  return { sql: `WHERE ${conditions.join(" AND ")}`, args };
}

/** The SQL and arguments of a spend sum (exported for the query-plan test). */
export function spendQuery(query: SpendQuery): { sql: string; args: (string | number)[] } {
  const filter = where(query, false);
  return {
    sql: `SELECT COALESCE(SUM(cost), 0.0) AS cost FROM usage ${filter.sql}`,
    args: [...filter.args, query.start],
  };
}

/** `$n` placeholders as SQLite's numbered `?n`. */
function numbered(sql: string): string {
  return sql.replace(/\$(\d+)/g, "?$1");
}

/** Ledger queries, prepared on first use and kept per connection. */
export class UsageReports {
  readonly #db: DatabaseSync;
  readonly #ledger: UsageLedger;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, ledger: UsageLedger) {
    this.#db = db;
    this.#ledger = ledger;
  }

  /** Totals over `[start, end)`, plus groups sorted by group key when asked. Writes the queued
   * rows first. */
  report(query: UsageQuery): UsageReport {
    this.#ledger.flush();
    const filter = where(query, true);
    const args = [...filter.args, query.start, query.end];
    // An aggregate without GROUP BY always yields exactly one row.
    const totalsRow = this.#prepare(`SELECT ${SUMS} FROM usage ${filter.sql}`).get(...args);
    if (totalsRow === undefined) throw new Error("usage totals query returned no row");
    const totals = usageTotalsFrom(totalsRow, SQLITE_CELLS);
    if (query.groupBy === undefined) return { totals };
    const statement = this.#prepare(
      `SELECT ${GROUP_KEYS[query.groupBy]} AS group_key, ${SUMS} FROM usage ${filter.sql} ` +
        "GROUP BY group_key ORDER BY group_key",
    );
    const groups = statement.all(...args).map((row) => ({
      key: text(row, "group_key"),
      ...usageTotalsFrom(row, SQLITE_CELLS),
    }));
    return { totals, groups };
  }

  /** The ledger over time (`series_sql.ts`). Writes the queued rows first. */
  series(query: SeriesQuery): UsageSeries {
    this.#ledger.flush();
    const [start, bucket, end, groups] = seriesArgs(query);
    const sums = this.#prepare(numbered(seriesSumsSql(query.groupBy)))
      .all(start, bucket, end, groups);
    const stats = this.#prepare(numbered(SERIES_STATS_SQL)).all(start, bucket, end);
    return seriesFrom(sums, stats, SQLITE_CELLS);
  }

  /** US dollars since `start` for the rows `query` names: those written, plus those still
   * queued (without writing them, which would cost the request path a commit each). */
  spend(query: SpendQuery): number {
    const { sql, args } = spendQuery(query);
    const row = this.#prepare(sql).get(...args);
    const written = row === undefined ? 0 : num(row, "cost");
    return written + this.#queuedCost(query);
  }

  #queuedCost(query: SpendQuery): number {
    const pending = this.#ledger.pending;
    if (pending.length === 0) return 0;
    const members = query.team === undefined ? null : new Set(
      this.#prepare(TEAM_MEMBERS).all(query.team).map((row) => text(row, "id")),
    );
    let cost = 0;
    for (const r of pending) if (queuedSpends(r, query, members)) cost += r.cost;
    return cost;
  }

  #prepare(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
