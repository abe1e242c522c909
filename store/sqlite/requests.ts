/**
 * The operator's list of requests: ledger rows over a window, newest first, narrowed by key,
 * team, model, outcome or request id, each with its upstream calls (`attempt_log`).
 *
 * Unfiltered and model/outcome/request-id queries walk the `usage_time` index backwards and stop
 * at the limit; a key's rows come through `usage_key_time`, already in time order.
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { RequestQuery, RequestRow } from "../store.ts";
import { REQUEST_COLUMNS, requestRowFrom, requestsLimit } from "../ledger_rows.ts";
import { type Row, SQLITE_CELLS } from "./rows.ts";
import type { UsageLedger } from "./usage.ts";

/** The SQL and arguments of a request listing (exported for the query-plan test). */
export function requestsQuery(query: RequestQuery): { sql: string; args: (string | number)[] } {
  const conditions = ["time >= ?", "time < ?"];
  const args: (string | number)[] = [query.start, query.end];
  const add = (condition: string, ...values: string[]) => {
    conditions.push(condition);
    args.push(...values);
  };
  if (query.keyId !== undefined) add("key_id = ?", query.keyId);
  if (query.team !== undefined) {
    add("key_id IN (SELECT id FROM api_keys WHERE team = ?)", query.team);
  }
  if (query.model !== undefined) add("(model = ? OR served_model = ?)", query.model, query.model);
  if (query.outcome !== undefined) add("outcome = ?", query.outcome);
  if (query.requestId !== undefined) add("request_id = ?", query.requestId);
  args.push(requestsLimit(query.limit));
  return {
    sql: `SELECT ${REQUEST_COLUMNS} FROM usage WHERE ${conditions.join(" AND ")} ` +
      "ORDER BY time DESC, id DESC LIMIT ?",
    args,
  };
}

function toRequest(row: Row): RequestRow {
  return requestRowFrom(row, SQLITE_CELLS);
}

/** Request listings, prepared on first use and kept per connection. */
export class RequestLog {
  readonly #db: DatabaseSync;
  readonly #ledger: UsageLedger;
  /** One statement per combination of filters (at most 32). */
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, ledger: UsageLedger) {
    this.#db = db;
    this.#ledger = ledger;
  }

  /** The rows `query` names, newest first. Writes the queued rows first. */
  list(query: RequestQuery): RequestRow[] {
    this.#ledger.flush();
    const { sql, args } = requestsQuery(query);
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement.all(...args).map(toRequest);
  }
}
