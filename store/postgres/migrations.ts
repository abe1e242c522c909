/**
 * Postgres schema migrations, tracked in `schema_migrations` (one row per applied version).
 * Append new entries, never edit shipped ones. Several instances may start at once: each takes
 * one transaction-scoped advisory lock and reads the version only once it holds it, so exactly
 * one of them migrates and the others find the work done.
 * @module
 */
import type { SqlClient } from "./sql_client.ts";

/** The advisory lock every migration transaction takes (an arbitrary, fixed id). */
export const MIGRATION_LOCK_ID = "7340271101";

/** Migration `i` takes the schema from version `i` to `i + 1`. The layout is SQLite's at its
 * version 4, with Postgres types: times BIGINT (unix ms), cost DOUBLE PRECISION, flags BOOLEAN,
 * policies and attempt logs JSON as TEXT (read by the same code as SQLite's). */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    policy TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    hint TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT,
    last_used_at BIGINT,
    admin BOOLEAN NOT NULL DEFAULT FALSE,
    team TEXT,
    policy TEXT NOT NULL DEFAULT '{}',
    rotated_at BIGINT,
    prev_key_hash TEXT,
    prev_valid_until BIGINT
  );
  CREATE INDEX api_keys_team ON api_keys (team);

  -- No foreign key to api_keys: the ledger must accept a write even if a key row is gone.
  CREATE TABLE usage (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    request_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    model TEXT NOT NULL,
    served_model TEXT NOT NULL,
    upstream TEXT NOT NULL,
    upstream_id TEXT,
    route TEXT NOT NULL,
    status INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    attempt_log TEXT,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cached_tokens BIGINT NOT NULL,
    cache_write_tokens BIGINT NOT NULL,
    reasoning_tokens BIGINT NOT NULL,
    images INTEGER NOT NULL,
    cost DOUBLE PRECISION NOT NULL,
    latency_ms DOUBLE PRECISION NOT NULL,
    first_byte_ms DOUBLE PRECISION,
    stream BOOLEAN NOT NULL,
    time BIGINT NOT NULL
  );
  CREATE INDEX usage_key_time ON usage (key_id, time);
  CREATE INDEX usage_time ON usage (time);

  CREATE TABLE responses (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    conversation TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );

  -- keys_generation: bumped by every key or team change in its transaction (VerifiedKeys).
  CREATE TABLE meta (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
  );
  INSERT INTO meta (name, value) VALUES ('keys_generation', 0);

  -- One row per ledger batch written, claimed in the batch's own transaction: a batch whose
  -- commit succeeded but whose answer was lost (the connection cut) is retried and found done,
  -- never written twice. Rows older than a day are pruned by the writer.
  CREATE TABLE ledger_batches (
    id TEXT PRIMARY KEY,
    written_at BIGINT NOT NULL
  );
  `,
];

/** The schema version a database has after {@link migrate}. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** What {@link migrate} did: the version found and the version left. */
export interface MigrationResult {
  from: number;
  to: number;
}

/**
 * Brings the schema up to {@link SCHEMA_VERSION} in one transaction under the migration lock.
 * Refuses a database written by a newer gatehouse rather than guessing at its layout.
 */
export function migrate(client: SqlClient): Promise<MigrationResult> {
  return client.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK_ID]);
    await tx.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY,
        applied_at BIGINT NOT NULL
      )`,
    );
    const [row] = await tx.query<{ version: number | null }>(
      "SELECT MAX(version) AS version FROM schema_migrations",
    );
    const from = row?.version ?? 0;
    if (from > SCHEMA_VERSION) {
      throw new Error(
        `database schema version ${from} is newer than this gatehouse build supports ` +
          `(${SCHEMA_VERSION}); upgrade gatehouse or point DATABASE_URL at another database`,
      );
    }
    for (let version = from; version < SCHEMA_VERSION; version++) {
      await tx.exec(MIGRATIONS[version] ?? "");
      await tx.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [
        version + 1,
        Date.now(),
      ]);
    }
    return { from, to: Math.max(from, SCHEMA_VERSION) };
  });
}
