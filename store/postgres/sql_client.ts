/**
 * The little the Postgres store needs from a database driver, so the same store code runs on the
 * `postgres` driver (production, `postgres_js_client.ts`) and on in-process PGlite (tests,
 * `pglite_client.ts`). Placeholders are `$1`, `$2`…; BIGINT comes back as a number.
 * @module
 */

/** A value bound to a placeholder. */
export type SqlValue = string | number | boolean | null;

/** A result row. */
export type SqlRow = Record<string, unknown>;

/** Runs statements: on the pool, or inside one transaction. */
export interface SqlQueries {
  /** Runs one statement (prepared where the driver can); its rows. */
  query<T extends SqlRow = SqlRow>(text: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

/** A connection pool (or PGlite's one connection). */
export interface SqlClient extends SqlQueries {
  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back
   * when it throws. */
  transaction<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T>;
  /** Calls `onNotify` with each payload sent on `channel` (`NOTIFY`); resolves once listening.
   * Returns the unlisten. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Takes the session advisory lock `lockId` on a connection of its own, kept until
   * {@link close} (or the process dies); false when another session holds it. */
  holdSessionLock(lockId: string): Promise<boolean>;
  /** Ends every connection. */
  close(): Promise<void>;
}
