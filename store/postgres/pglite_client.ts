/**
 * {@link SqlClient} on PGlite, Postgres compiled to WebAssembly and run in process: the store's
 * tests use it where no Postgres server exists. One connection: PGlite runs one query or
 * transaction at a time, so transactions are serialized with everything else.
 * @module
 */
import { PGlite } from "@electric-sql/pglite";
import type { SqlClient, SqlQueries, SqlRow, SqlValue } from "./sql_client.ts";

/** The part of PGlite and of its transactions the client uses. */
interface PgliteQueries {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
}

/** NUMERIC as a number, like the production client (BIGINT already is one in PGlite). */
const PARSERS = { 1700: (value: string) => Number(value) };

function queriesOf(db: PgliteQueries): SqlQueries {
  return {
    async query<T extends SqlRow>(text: string, params: readonly SqlValue[] = []) {
      return (await db.query<T>(text, [...params])).rows;
    },
    async exec(text: string) {
      await db.exec(text);
    },
  };
}

/** A fresh in-memory PGlite database, for {@link pgliteClient}. */
export function createPglite(): PGlite {
  return new PGlite({ parsers: PARSERS });
}

/** A client on `db`. Several clients may share one database (two "instances" of the store);
 * `close` closes the database only when `owns` (the default). */
export function pgliteClient(db: PGlite, owns = true): SqlClient {
  return {
    ...queriesOf(db),
    transaction: (fn) => db.transaction((tx) => fn(queriesOf(tx))),
    async listen(channel, onNotify) {
      const unlisten = await db.listen(channel, onNotify);
      return () => unlisten();
    },
    async holdSessionLock(lockId) {
      // One session for every client of the database: the lock is always this session's.
      const [row] = (await db.query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock($1::bigint) AS locked",
        [lockId],
      )).rows;
      return row?.locked === true;
    },
    async close() {
      if (owns && !db.closed) await db.close();
    },
  };
}
