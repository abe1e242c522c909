/**
 * Opens a SQLite database for the store: parent directory, connection pragmas, migrations.
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { dirname } from "node:path";
import { migrate } from "./migrations.ts";

/** The path that opens a private in-memory database. */
export const MEMORY_PATH = ":memory:";

/** How long a writer waits for another connection's lock before failing, in milliseconds. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating if needed) the database at `path`, or an in-memory one for `:memory:`.
 * File databases use WAL with `synchronous=NORMAL`: readers never block the writer, and a
 * power loss can lose at most the last commits, never corrupt the file.
 */
export function openDatabase(path: string): DatabaseSync {
  const inMemory = path === MEMORY_PATH;
  let db: DatabaseSync;
  try {
    if (!inMemory) Deno.mkdirSync(dirname(path), { recursive: true });
    db = new DatabaseSync(path);
  } catch (error) {
    throw new Error(
      `could not open the SQLite database at "${path}": ${describe(error)}; ` +
        `check GATEHOUSE_DB and that the directory is writable`,
      { cause: error },
    );
  }
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!inMemory) {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
    }
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
