/**
 * {@link SqlClient} on the `postgres` driver (porsager's): a pool with pipelining and automatic
 * prepared statements, LISTEN on a connection of its own that it re-opens after a drop.
 * @module
 */
import postgres from "postgres";
import type { SqlClient, SqlQueries, SqlRow, SqlValue } from "./sql_client.ts";
import { guardDriverCrash } from "./driver_guard.ts";

/** Options for {@link connectPostgresJs}. */
export interface PostgresJsOptions {
  /** Pool size (default 10). */
  max?: number;
  /** Seconds to wait for a connection (default 10). */
  connectTimeoutSeconds?: number;
}

/** BIGINT (20) and NUMERIC (1700) as JS numbers: times and counts stay far below 2^53. */
const NUMBER_TYPES = {
  bigint: {
    to: 20,
    from: [20, 1700],
    serialize: (value: number) => String(value),
    parse: (value: string) => Number(value),
  },
};

type Driver = postgres.Sql<{ bigint: number }>;
type Runner = Driver | postgres.TransactionSql<{ bigint: number }>;
type Params = postgres.ParameterOrJSON<number>[];

function queriesOf(sql: Runner): SqlQueries {
  return {
    async query<T extends SqlRow>(text: string, params: readonly SqlValue[] = []) {
      // Prepared: the driver keeps one statement per text and connection, so the ledger's
      // multi-row INSERTs and every query are parsed once.
      const rows = await sql.unsafe(text, params as Params, { prepare: true });
      return rows as unknown as T[];
    },
    async exec(text: string) {
      await sql.unsafe(text);
    },
  };
}

/** Connects a pool to the database at `url` (nothing is sent until the first query). */
export function connectPostgresJs(url: string, options: PostgresJsOptions = {}): SqlClient {
  guardDriverCrash((message) => console.warn(message));
  const sql: Driver = postgres(url, {
    types: NUMBER_TYPES,
    max: options.max ?? 10,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    onnotice: () => {},
  });
  const pool = queriesOf(sql);
  /** Connections holding a session lock: handed back at close, so `end` closes them at once. */
  const held: postgres.ReservedSql<{ bigint: number }>[] = [];
  return {
    ...pool,
    async transaction<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T> {
      return await sql.begin((tx) => fn(queriesOf(tx))) as T;
    },
    async listen(channel, onNotify) {
      const { unlisten } = await sql.listen(channel, onNotify);
      return unlisten;
    },
    async holdSessionLock(lockId) {
      // A reserved connection is never handed to other queries: the lock lives as long as it,
      // and ends with it when the pool closes or the process dies.
      const reserved = await sql.reserve();
      const [row] = await reserved.unsafe("SELECT pg_try_advisory_lock($1::bigint) AS locked", [
        lockId,
      ]);
      if (row?.locked === true) {
        held.push(reserved);
        return true;
      }
      reserved.release();
      return false;
    },
    async close() {
      for (const reserved of held.splice(0)) reserved.release();
      await sql.end({ timeout: 5 });
    },
  };
}
