/**
 * Test helpers for the Postgres store: a fresh database per test, on in-process PGlite always,
 * and on the real server named by `TEST_DATABASE_URL` when it is set (each test creates its own
 * `gatehouse_test_<random>` database there and drops it afterwards, so runs never collide).
 * @module
 */
import type { PGlite } from "@electric-sql/pglite";
import { createPglite, pgliteClient } from "./pglite_client.ts";
import { connectPostgresJs } from "./postgres_js_client.ts";
import type { SqlClient } from "./sql_client.ts";
import { createScratchDatabase } from "./scratch_database.ts";

/** The real server's admin URL, or undefined (then only PGlite runs). */
export const TEST_DATABASE_URL = Deno.env.get("TEST_DATABASE_URL");

/** A fresh database and how to reach it. */
export interface TestDatabase {
  /** A new client on the database (each store gets its own, as another instance would). */
  client(): SqlClient;
  /** The description stores on it give. */
  description: string;
  /** Drops the database (after ending its connections). */
  drop(): Promise<void>;
}

/** The PGlite every test of a module shares: starting one costs seconds, a schema milliseconds. */
let shared: PGlite | null = null;

/**
 * A fresh PGlite database: a schema of its own on the module's shared PGlite, made the search
 * path before each use (tests run one at a time, and PGlite runs one statement at a time).
 * Every client shares it (one session); `drop` drops the schema.
 */
export function pgliteDatabase(): TestDatabase {
  const db = shared ??= createPglite();
  const schema = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  let created: Promise<unknown> | null = null;
  const enter = async () => {
    await (created ??= db.exec(`CREATE SCHEMA ${schema}`));
    await db.exec(`SET search_path TO ${schema}`);
  };
  const client = (): SqlClient => {
    const inner = pgliteClient(db, false);
    return {
      query: async (text, params) => (await enter(), inner.query(text, params)),
      exec: async (text) => (await enter(), inner.exec(text)),
      transaction: async (fn) => (await enter(), inner.transaction(fn)),
      listen: async (channel, onNotify) => (await enter(), inner.listen(channel, onNotify)),
      holdSessionLock: async (lockId) => (await enter(), inner.holdSessionLock(lockId)),
      close: () => inner.close(),
    };
  };
  return {
    client,
    description: "pglite (in memory)",
    drop: async () => {
      await enter();
      await db.exec(`DROP SCHEMA ${schema} CASCADE; SET search_path TO public`);
    },
  };
}

/** A fresh database on the server at `adminUrl`. */
export async function serverDatabase(adminUrl: string): Promise<TestDatabase> {
  const { url, name, drop } = await createScratchDatabase(adminUrl, "gatehouse_test");
  return {
    client: () => connectPostgresJs(url.href, { max: 4 }),
    description: `postgres://${url.hostname}:${url.port || "5432"}/${name}`,
    drop,
  };
}

/** Runs `fn` on `database`, then drops the database whatever happened. */
export async function usingDatabase(
  database: TestDatabase | Promise<TestDatabase>,
  fn: (database: TestDatabase) => Promise<void>,
): Promise<void> {
  const opened = await database;
  try {
    await fn(opened);
  } finally {
    await opened.drop();
  }
}
