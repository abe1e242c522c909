/**
 * Picks the `Store` implementation for a `DATABASE_URL` / `GATEHOUSE_DB` value.
 * @module
 */
import type { Store } from "./store.ts";
import { openSqliteStore } from "./sqlite/sqlite_store.ts";
import { openPostgresStore } from "./postgres/postgres_store.ts";
import type { StoreLogger } from "./store_logger.ts";
import { isPostgresUrl } from "./postgres/database_url.ts";

/** Options for {@link openStore}. */
export interface OpenStoreOptions {
  /** The clock, in unix milliseconds. Tests pass a fake one. */
  now?: () => number;
  /** Where a store reports background failures (a Postgres ledger outage, a SQLite checkpoint
   * worker that failed; default: the console). */
  log?: StoreLogger;
  /** The most connections a Postgres store's pool opens (default 10). */
  poolSize?: number;
  /** A SQLite file store starts its checkpoint worker at once, not at its first ledger commit
   * (`sqlite/wal_checkpointer.ts`): a serving gateway's first requests then do not wait the
   * ~30 ms of its start. The store must be closed, or the worker keeps the process alive. */
  checkpointsFromOpen?: boolean;
}

/**
 * Opens the store named by `url`: a `postgres://` (or `postgresql://`) URL opens the Postgres
 * store, migrating the database first; anything else is a SQLite file path (its directory is
 * created if missing) or `:memory:`.
 */
export function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  try {
    if (url.trim() === "") {
      throw new Error(
        "the database setting is empty; set DATABASE_URL or GATEHOUSE_DB to a postgres:// URL " +
          "or a SQLite file path such as ./data/gatehouse.db",
      );
    }
    if (isPostgresUrl(url)) {
      // The runtime's own URL error repeats the whole input, password included.
      if (!URL.canParse(url.trim())) {
        throw new Error(
          "the postgres:// URL in DATABASE_URL (or GATEHOUSE_DB) cannot be parsed (it is not " +
            "shown: it may hold a password); check its host, port and the escaping of special " +
            "characters in the user name and password (percent-encode them)",
        );
      }
      return openPostgresStore(url.trim(), options);
    }
    return Promise.resolve(
      openSqliteStore(url, {
        now: options.now,
        checkpointsFromOpen: options.checkpointsFromOpen,
        log: options.log,
      }),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}
