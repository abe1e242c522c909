/**
 * Schema migrations, tracked in SQLite's `PRAGMA user_version`. Each entry upgrades the schema
 * by one version; append new entries, never edit shipped ones.
 * @module
 */
import type { DatabaseSync } from "node:sqlite";

/** Migration `i` takes the schema from version `i` to `i + 1`. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    hint TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    last_used_at INTEGER
  ) STRICT;

  -- No foreign key to api_keys: the ledger must accept a write even if a key row is gone.
  CREATE TABLE usage (
    id INTEGER PRIMARY KEY,
    key_id TEXT NOT NULL,
    model TEXT NOT NULL,
    upstream TEXT NOT NULL,
    route TEXT NOT NULL,
    status INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cached_tokens INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL,
    reasoning_tokens INTEGER NOT NULL,
    images INTEGER NOT NULL,
    cost REAL NOT NULL,
    latency_ms REAL NOT NULL,
    stream INTEGER NOT NULL,
    aborted INTEGER NOT NULL,
    time INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX usage_key_time ON usage (key_id, time);

  CREATE TABLE responses (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    conversation TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  `,
  // 2: what the request lifecycle records. Rows written before it get the outcome their status
  // and abort flag imply, and their model as the served one. No index on request_id: with random
  // ids every row's insert lands at a random place in it, which made a ledger write three times
  // dearer (and growing with the table) and cost chat JSON requests a tenth of their throughput;
  // finding one request by id scans the ledger, an operator's occasional query.
  `
  ALTER TABLE usage ADD COLUMN request_id TEXT NOT NULL DEFAULT '';
  ALTER TABLE usage ADD COLUMN served_model TEXT NOT NULL DEFAULT '';
  ALTER TABLE usage ADD COLUMN upstream_id TEXT;
  ALTER TABLE usage ADD COLUMN outcome TEXT NOT NULL DEFAULT 'ok';
  ALTER TABLE usage ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE usage ADD COLUMN first_byte_ms REAL;
  UPDATE usage SET served_model = model, outcome = CASE
    WHEN aborted = 1 THEN 'client_disconnect'
    WHEN status < 400 THEN 'ok'
    WHEN status = 500 THEN 'internal_error'
    WHEN status = 504 THEN 'timeout'
    ELSE 'upstream_error' END;
  `,
  // 3: governance. Keys gain the admin flag, a team, their own policy (JSON of `Policy`) and the
  // previous secret's hash with its grace, for rotation; teams hold a shared policy. Existing
  // keys become plain keys with no team and no limits. `meta.keys_generation` is bumped by every
  // key or team change, in the same transaction, so every connection to the file can tell that
  // its memory of verified keys is stale.
  `
  ALTER TABLE api_keys ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE api_keys ADD COLUMN team TEXT;
  ALTER TABLE api_keys ADD COLUMN policy TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE api_keys ADD COLUMN rotated_at INTEGER;
  ALTER TABLE api_keys ADD COLUMN prev_key_hash TEXT;
  ALTER TABLE api_keys ADD COLUMN prev_valid_until INTEGER;
  CREATE INDEX api_keys_team ON api_keys (team);

  CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    policy TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE meta (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  ) STRICT;
  INSERT INTO meta (name, value) VALUES ('keys_generation', 0);
  `,
  // 4: reliability. `attempt_log` is each upstream call of a request (a JSON array of
  // `AttemptRecord`), NULL for rows written before it and for requests refused before any call.
  // `usage_time` serves the operator's list of recent requests (newest first, any key) without
  // scanning the ledger: rows arrive in time order, so each insert lands at the index's right
  // edge and costs a row about a tenth more (measured), unlike the random request ids of
  // migration 2. Building it over an existing ledger takes under a second per million rows.
  `
  ALTER TABLE usage ADD COLUMN attempt_log TEXT;
  CREATE INDEX usage_time ON usage (time);
  `,
];

/** The schema version a database has after `migrate`. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The database's current schema version. */
export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get();
  const version = row?.user_version;
  return typeof version === "number" ? version : 0;
}

/**
 * Brings the schema up to `SCHEMA_VERSION`, one transaction per migration. Refuses a database
 * written by a newer gatehouse rather than guessing at its layout.
 */
export function migrate(db: DatabaseSync): void {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `database schema version ${current} is newer than this gatehouse build supports ` +
        `(${SCHEMA_VERSION}); upgrade gatehouse or point GATEHOUSE_DB at another file`,
    );
  }
  for (let version = current; version < SCHEMA_VERSION; version++) {
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(MIGRATIONS[version] ?? "");
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
}
