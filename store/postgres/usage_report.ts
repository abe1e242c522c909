/**
 * Reading the Postgres ledger: reports (totals, and groups by model, UTC day, key or team), the
 * spend of a key or team (rows still queued included), and the operator's request listing (rows
 * still queued merged in). Same semantics as SQLite's `usage_report.ts` and `requests.ts`: a
 * team's rows are those of the keys currently in it; grouping by team uses each key's current
 * team, `""` for keys without one.
 * @module
 */
import {
  type Outcome,
  OUTCOMES,
  type RequestQuery,
  type RequestRow,
  type SpendQuery,
  type UsageQuery,
  type UsageReport,
  type UsageTotals,
} from "../store.ts";
import {
  attemptLogOf,
  outcomeOf,
  queuedListed,
  queuedSpends,
  requestRowOf,
  requestsLimit,
} from "../ledger_rows.ts";
import type { SqlClient, SqlRow, SqlValue } from "./sql_client.ts";
import type { PostgresLedger } from "./ledger.ts";
import { bool, num, numOrNull, text, textOrNull } from "./rows.ts";

const SUMS = `
  COUNT(*) AS requests,
  COALESCE(SUM(input_tokens), 0) AS input_tokens,
  COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cached_tokens), 0) AS cached_tokens,
  COALESCE(SUM(cache_write_tokens), 0) AS cache_write_tokens,
  COALESCE(SUM(reasoning_tokens), 0) AS reasoning_tokens,
  COALESCE(SUM(images), 0) AS images,
  COALESCE(SUM(cost), 0) AS cost,
  ${OUTCOMES.map((o) => `COUNT(*) FILTER (WHERE outcome = '${o}') AS outcome_${o}`).join(",\n  ")}`;

/** The group key of each grouping. */
const GROUP_KEYS = {
  model: "model",
  /** UTC calendar day of a unix-millisecond time, as `YYYY-MM-DD`. */
  day: "to_char(to_timestamp(floor(time / 1000.0)) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
  key: "key_id",
  team: "COALESCE((SELECT team FROM api_keys WHERE api_keys.id = usage.key_id), '')",
} as const;

const TEAM_MEMBERS = "SELECT id FROM api_keys WHERE team = $1";

const REQUEST_COLUMNS = "request_id, key_id, model, served_model, upstream, route, status, " +
  "outcome, attempts, attempt_log, input_tokens, output_tokens, cost, latency_ms, first_byte_ms, " +
  "stream, time";

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

function toTotals(row: SqlRow): UsageTotals {
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

function toRequest(row: SqlRow): RequestRow {
  return {
    requestId: text(row, "request_id"),
    keyId: text(row, "key_id"),
    model: text(row, "model"),
    servedModel: text(row, "served_model"),
    upstream: text(row, "upstream"),
    route: text(row, "route"),
    status: num(row, "status"),
    outcome: outcomeOf(text(row, "outcome")),
    attempts: num(row, "attempts"),
    attemptLog: attemptLogOf(textOrNull(row, "attempt_log")),
    inputTokens: num(row, "input_tokens"),
    outputTokens: num(row, "output_tokens"),
    cost: num(row, "cost"),
    latencyMs: num(row, "latency_ms"),
    firstByteMs: numOrNull(row, "first_byte_ms"),
    stream: bool(row, "stream"),
    time: num(row, "time"),
  };
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
    const totals = toTotals(totalsRow);
    if (query.groupBy === undefined) return { totals };
    // COLLATE "C": byte order, as SQLite sorts, whatever the database's collation.
    const rows = await this.#client.query(
      `SELECT * FROM (SELECT ${GROUP_KEYS[query.groupBy]} AS group_key, ${SUMS} FROM usage ` +
        `${where.sql} GROUP BY 1) AS g ORDER BY group_key COLLATE "C"`,
      where.args,
    );
    return {
      totals,
      groups: rows.map((row) => ({ key: text(row, "group_key"), ...toTotals(row) })),
    };
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
      const written = rows.map(toRequest);
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
