/**
 * How a store reports what goes wrong in the background, away from any request: a Postgres
 * ledger outage, a SQLite checkpoint worker that failed.
 * @module
 */

/** A line at a level; the message holds no secret (no key, no password of a URL). */
export type StoreLogger = (level: "info" | "warn" | "error", message: string) => void;

/** The default: the console. */
export const consoleStoreLogger: StoreLogger = (level, message) => console[level](message);
