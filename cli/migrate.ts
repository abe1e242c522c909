/**
 * `deno task migrate`: brings the database named by `DATABASE_URL` (or `GATEHOUSE_DB`) to this
 * build's schema — a postgres:// URL or a SQLite file path — and prints the versions.
 * Exit 0 when done (also when there was nothing to do), 1 with the reason when it fails.
 * @module
 */
import { DEFAULT_DB_PATH } from "./cli_common.ts";
import type { CliIo } from "./cli_common.ts";
import { describePostgresUrl, isPostgresUrl } from "../store/postgres/database_url.ts";
import { connectPostgresJs } from "../store/postgres/postgres_js_client.ts";
import { migrate as migratePostgres } from "../store/postgres/migrations.ts";
import { openDatabase } from "../store/sqlite/open.ts";
import { migrate as migrateSqlite, schemaVersion } from "../store/sqlite/migrations.ts";
import { DatabaseSync } from "node:sqlite";
import { existsSync } from "node:fs";

/** The database the migration is for: DATABASE_URL, else GATEHOUSE_DB, else the default file. */
export function databaseOf(env: CliIo["env"]): string {
  return env.get("DATABASE_URL") ?? env.get("GATEHOUSE_DB") ?? DEFAULT_DB_PATH;
}

async function migrateTarget(target: string): Promise<{ from: number; to: number; name: string }> {
  if (isPostgresUrl(target)) {
    const client = connectPostgresJs(target.trim(), { max: 1 });
    try {
      return { ...await migratePostgres(client), name: describePostgresUrl(target) };
    } finally {
      await client.close().catch(() => {});
    }
  }
  // Read the version before opening: opening a SQLite store migrates it.
  let from = 0;
  if (target !== ":memory:" && existsSync(target)) {
    const db = new DatabaseSync(target);
    try {
      from = schemaVersion(db);
    } finally {
      db.close();
    }
  }
  const db = openDatabase(target);
  try {
    migrateSqlite(db);
    return { from, to: schemaVersion(db), name: target };
  } finally {
    db.close();
  }
}

/** Runs the migration; the exit code. */
export async function runMigrate(io: CliIo): Promise<number> {
  const target = databaseOf(io.env);
  if (target.trim() === "") {
    io.stderr(
      "error: DATABASE_URL / GATEHOUSE_DB is empty; name a postgres:// URL or a SQLite file\n",
    );
    return 1;
  }
  try {
    const { from, to, name } = await migrateTarget(target);
    io.stdout(
      from === to
        ? `${name}: schema already at version ${to}, nothing to do\n`
        : `${name}: schema migrated from version ${from} to ${to}\n`,
    );
    return 0;
  } catch (error) {
    const name = isPostgresUrl(target) ? describePostgresUrl(target) : target;
    const reason = error instanceof Error ? error.message : String(error);
    io.stderr(`error: migrating ${name} failed: ${reason}\n`);
    return 1;
  }
}

if (import.meta.main) {
  Deno.exit(
    await runMigrate({
      stdout: (text) => Deno.stdout.writeSync(new TextEncoder().encode(text)),
      stderr: (text) => Deno.stderr.writeSync(new TextEncoder().encode(text)),
      env: Deno.env,
    }),
  );
}
