/**
 * Picks the `Store` implementation for a `GATEHOUSE_DB` value.
 * @module
 */
import type { Store } from "./store.ts";
import { openSqliteStore } from "./sqlite/sqlite_store.ts";

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;

/**
 * Opens the store named by `url`: a SQLite file path (its directory is created if missing) or
 * `:memory:`. `postgres://` URLs are recognised and refused with a clear message: the `Store`
 * interface is built for a Postgres implementation, which this build does not include yet.
 */
export function openStore(url: string): Promise<Store> {
  try {
    if (url.trim() === "") {
      throw new Error(
        "GATEHOUSE_DB is empty; set it to a SQLite file path such as ./data/gatehouse.db",
      );
    }
    if (POSTGRES_URL.test(url)) {
      throw new Error(
        "the Postgres store is not implemented yet; GATEHOUSE_DB must be a SQLite file path " +
          "(for example ./data/gatehouse.db) or :memory: for now",
      );
    }
    return Promise.resolve(openSqliteStore(url));
  } catch (error) {
    return Promise.reject(error);
  }
}
