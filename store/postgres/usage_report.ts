/**
 * Reading the Postgres ledger: reports (totals, and groups by model, UTC day, key or team), the
 * spend of a key or team (rows still queued included), and the operator's request listing (rows
 * still queued merged in). Same semantics as SQLite's `usage_report.ts` and `requests.ts`: a
 * team's rows are those of the keys currently in it; grouping by team uses each key's current
 * team, `""` for keys without one.
 * @module
 */
import type {
  RequestQuery,
  RequestRow,
  SeriesQuery,
  SpendQuery,
  UsageQuery,
  UsageReport,
  UsageSeries,
} from "../store.ts";
import { SERIES_STATS_SQL, seriesArgs, seriesFrom, seriesSumsSql } from "../series_sql.ts";
import {
  queuedListed,
  queuedSpends,
  REQUEST_COLUMNS,
  requestRowFrom,
  requestRowOf,
  requestsLimit,
} from "../ledger_rows.ts";
import { groupKeys, usageSums, usageTotalsFrom } from "../report_rows.ts";
import type { SqlClient, SqlValue } from "./sql_client.ts";
import type { PostgresLedger } from "./ledger.ts";
import { num, PG_CELLS, text } from "./rows.ts";

const SUMS = usageSums((o) => `COUNT(*) FILTER (WHERE outcome = '${o}')`, "0");

/** The group key of each grouping. */
const GROUP_KEYS = groupKeys(
  "to_char(to_timestamp(floor(time / 1000.0)) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
);

const TEAM_MEMBERS = "SELECT id FROM api_keys WHERE team = $1";

/** Conditions with `$n` placeholders, numbered as they are added. */
class Where {
  readonly conditions: string[] = [];
  readonly args: SqlValue[] = [];

  add(condition: (next: () => string) => string, ...values: SqlValue[]): this {
    let n = this.args.length;
    this.conditions.push(condition(() => `$${++n}`));
    this.args.push(...values);
    return this;
  }

  get sql(): string {
    return `WHERE ${this.conditions.join(" AND ")}`;
  }
}

function scope(filter: { keyId?: string; team?: string; start: number }): Where {
  const where = new Where();
  if (filter.keyId !== undefined) where.add((p) => `key_id = ${p()}`, filter.keyId);
  if (filter.team !== undefined) {
    where.add((p) => `key_id IN (SELECT id FROM api_keys WHERE team = ${p()})`, filter.team);
  }
  return where.add((p) => `time >= ${p()}`, filter.start);
}

/** Ledger queries over one client and its writer. */
export class PostgresReports {
  readonly #client: SqlClient;
  readonly #ledger: PostgresLedger;

  constructor(client: SqlClient, ledger: PostgresLedger) {
    this.#client = client;
    this.#ledger = ledger;
  }

  /** Totals over `[start, end)`, plus groups sorted by group key when asked. Writes the queued
   * rows first (rows a failing database would not take are not in the report). */
  async report(query: UsageQuery): Promise<UsageReport> {
    await this.#ledger.flush();
    const where = scope(query).add((p) => `time < ${p()}`, query.end);
    const [totalsRow] = await this.#client.query(
      `SELECT ${SUMS} FROM usage ${where.sql}`,
      where.args,
    );
    if (totalsRow === undefined) throw new Error("usage totals query returned no row");
    const totals = usageTotalsFrom(totalsRow, PG_CELLS);
    if (query.groupBy === undefined) return { totals };
    // COLLATE "C": byte order, as SQLite sorts, whatever the database's collation.
    const rows = await this.#client.query(
      `SELECT * FROM (SELECT ${GROUP_KEYS[query.groupBy]} AS group_key, ${SUMS} FROM usage ` +
        `${where.sql} GROUP BY 1) AS g ORDER BY group_key COLLATE "C"`,
      where.args,
    );
    return {
      totals,
      groups: rows.map((row) => ({
        key: text(row, "group_key"),
        ...usageTotalsFrom(row, PG_CELLS),
      })),
    };
  }

  /** The ledger over time (`series_sql.ts`). Writes the queued rows first, as `report` does. */
  async series(query: SeriesQuery): Promise<UsageSeries> {
    await this.#ledger.flush();
    const args = seriesArgs(query);
    const [sums, stats] = await Promise.all([
      this.#client.query(seriesSumsSql(query.groupBy), args),
      this.#client.query(SERIES_STATS_SQL, args.slice(0, 3)),
    ]);
    return seriesFrom(sums, stats, PG_CELLS);
  }

  /** US dollars since `start` for the rows `query` names, written or still queued. */
  spend(query: SpendQuery): Promise<number> {
    return this.#ledger.withQueued(async (queued) => {
      const where = scope(query);
      const [row] = await this.#client.query(
        `SELECT COALESCE(SUM(cost), 0) AS cost FROM usage ${where.sql}`,
        where.args,
      );
      const members = await this.#members(query.team, queued.length);
      let cost = row === undefined ? 0 : num(row, "cost");
      for (const r of queued) if (queuedSpends(r, query, members)) cost += r.cost;
      return cost;
    });
  }

  /** The rows `query` names, newest first, written or still queued. */
  list(query: RequestQuery): Promise<RequestRow[]> {
    return this.#ledger.withQueued(async (queued) => {
      const limit = requestsLimit(query.limit);
      const where = new Where()
        .add((p) => `time >= ${p()}`, query.start)
        .add((p) => `time < ${p()}`, query.end);
      if (query.keyId !== undefined) where.add((p) => `key_id = ${p()}`, query.keyId);
      if (query.team !== undefined) {
        where.add((p) => `key_id IN (SELECT id FROM api_keys WHERE team = ${p()})`, query.team);
      }
      if (query.model !== undefined) {
        where.add((p) => `(model = ${p()} OR served_model = ${p()})`, query.model, query.model);
      }
      if (query.outcome !== undefined) where.add((p) => `outcome = ${p()}`, query.outcome);
      if (query.requestId !== undefined) where.add((p) => `request_id = ${p()}`, query.requestId);
      where.args.push(limit);
      const rows = await this.#client.query(
        `SELECT ${REQUEST_COLUMNS} FROM usage ${where.sql} ORDER BY time DESC, id DESC ` +
          `LIMIT $${where.args.length}`,
        where.args,
      );
      const written = rows.map((row) => requestRowFrom(row, PG_CELLS));
      const members = await this.#members(query.team, queued.length);
      // Queued rows are newer than every written one: at an equal time they come first.
      const waiting = queued.filter((r) => queuedListed(r, query, members)).map(requestRowOf)
        .reverse();
      if (waiting.length === 0) return written;
      return [...waiting, ...written].sort((a, b) => b.time - a.time).slice(0, limit);
    });
  }

  /** The keys of `team` (null without one, or when nothing is queued to match against them). */
  async #members(team: string | undefined, queued: number): Promise<Set<string> | null> {
    if (team === undefined || queued === 0) return null;
    const rows = await this.#client.query(TEAM_MEMBERS, [team]);
    return new Set(rows.map((row) => text(row, "id")));
  }
}
