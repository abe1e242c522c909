/**
 * The statements over `api_keys`, `teams` and `meta.keys_generation`, each run on the pool or
 * inside a transaction (`SqlQueries`).
 * @module
 */
import type { Policy } from "../../governance/policy.ts";
import type { KeyRecord, TeamRecord } from "../store.ts";
import { writePolicy } from "../policy_json.ts";
import type { SqlQueries, SqlRow } from "./sql_client.ts";
import { num, PG_CELLS } from "./rows.ts";
import {
  type KeyFields,
  keyRecordFrom,
  type KeyRow,
  keyRowFrom,
  SELECT_KEY,
  TEAM_COLUMNS,
  teamRecordFrom,
} from "../record_rows.ts";

export type { KeyFields, KeyRow } from "../record_rows.ts";

/** The channel a key or team change is announced on, with the new generation as payload. */
export const KEYS_CHANNEL = "gatehouse_keys";

function toKey(row: SqlRow): KeyRecord {
  return keyRecordFrom(row, PG_CELLS);
}

function toTeam(row: SqlRow): TeamRecord {
  return teamRecordFrom(row, PG_CELLS);
}

/** Inserts a new key; false when the id is taken. */
export async function insertKey(db: SqlQueries, r: KeyRecord, hash: string): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO api_keys (id, name, key_hash, hint, created_at, admin, team, policy)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [r.id, r.name, hash, r.hint, r.createdAt, r.admin, r.team, writePolicy(r.policy)],
  );
  return rows.length === 1;
}

/** Every key, oldest first. */
export async function listKeys(db: SqlQueries): Promise<KeyRecord[]> {
  return (await db.query(`${SELECT_KEY} ORDER BY k.created_at, k.id COLLATE "C"`)).map(toKey);
}

/** The row for `id` with its hashes, or null. */
export async function findKey(db: SqlQueries, id: string): Promise<KeyRow | null> {
  const [row] = await db.query(`${SELECT_KEY} WHERE k.id = $1`, [id]);
  return row === undefined ? null : keyRowFrom(row, PG_CELLS);
}

/** Writes a key's name, admin flag, team and policy. */
export async function updateKey(db: SqlQueries, id: string, f: KeyFields): Promise<void> {
  await db.query(
    "UPDATE api_keys SET name = $1, admin = $2, team = $3, policy = $4 WHERE id = $5",
    [
      f.name,
      f.admin,
      f.team,
      writePolicy(f.policy),
      id,
    ],
  );
}

/** Gives a live key a new secret, keeping the old hash as the previous one until `validUntil`;
 * false when no such key or it is revoked. */
export async function rotateKey(
  db: SqlQueries,
  id: string,
  change: { hash: string; hint: string; now: number; validUntil: number },
): Promise<boolean> {
  // The right-hand sides read the row as it was: the old key_hash becomes the previous one.
  const rows = await db.query(
    `UPDATE api_keys SET prev_key_hash = key_hash, key_hash = $1, hint = $2, rotated_at = $3,
       prev_valid_until = $4 WHERE id = $5 AND revoked_at IS NULL RETURNING id`,
    [change.hash, change.hint, change.now, change.validUntil, id],
  );
  return rows.length === 1;
}

/** Marks a key revoked (the first revocation time is kept); false when no such key. */
export async function revokeKey(db: SqlQueries, id: string, now: number): Promise<boolean> {
  const rows = await db.query(
    "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING id",
    [now, id],
  );
  return rows.length === 1;
}

/** Sets `last_used_at`. */
export async function touchKey(db: SqlQueries, id: string, now: number): Promise<void> {
  await db.query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2", [now, id]);
}

/** How many keys exist, revoked ones included. */
export async function countKeys(db: SqlQueries): Promise<number> {
  const [row] = await db.query("SELECT COUNT(*) AS n FROM api_keys");
  return row === undefined ? 0 : num(row, "n");
}

/** Inserts a team; false when the id is taken. */
export async function insertTeam(db: SqlQueries, r: TeamRecord): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO teams (${TEAM_COLUMNS}) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING
     RETURNING id`,
    [r.id, writePolicy(r.policy), r.createdAt, r.updatedAt],
  );
  return rows.length === 1;
}

/** Every team, by id. */
export async function listTeams(db: SqlQueries): Promise<TeamRecord[]> {
  return (await db.query(`SELECT ${TEAM_COLUMNS} FROM teams ORDER BY id COLLATE "C"`)).map(toTeam);
}

/** The team `id`, or null. */
export async function findTeam(db: SqlQueries, id: string): Promise<TeamRecord | null> {
  const [row] = await db.query(`SELECT ${TEAM_COLUMNS} FROM teams WHERE id = $1`, [id]);
  return row === undefined ? null : toTeam(row);
}

/** Replaces a team's policy; the new record, or null when no such team. */
export async function updateTeam(
  db: SqlQueries,
  id: string,
  policy: Policy,
  now: number,
): Promise<TeamRecord | null> {
  const [row] = await db.query(
    `UPDATE teams SET policy = $1, updated_at = $2 WHERE id = $3 RETURNING ${TEAM_COLUMNS}`,
    [writePolicy(policy), now, id],
  );
  return row === undefined ? null : toTeam(row);
}

/** Deletes a team; false when none. Does not look at its keys. */
export async function deleteTeam(db: SqlQueries, id: string): Promise<boolean> {
  return (await db.query("DELETE FROM teams WHERE id = $1 RETURNING id", [id])).length === 1;
}

/** How many keys that are not revoked belong to team `id`. */
export async function liveMembers(db: SqlQueries, id: string): Promise<number> {
  const [row] = await db.query(
    "SELECT COUNT(*) AS n FROM api_keys WHERE team = $1 AND revoked_at IS NULL",
    [id],
  );
  return row === undefined ? 0 : num(row, "n");
}

/** The current key generation. */
export async function readGeneration(db: SqlQueries): Promise<number> {
  const [row] = await db.query("SELECT value FROM meta WHERE name = 'keys_generation'");
  if (row === undefined) throw new Error("store schema mismatch: meta.keys_generation is gone");
  return num(row, "value");
}

/** Adds one to the generation and announces it on {@link KEYS_CHANNEL} (delivered at commit);
 * the new generation. Call inside the transaction that made the change. */
export async function bumpGeneration(db: SqlQueries): Promise<number> {
  const [row] = await db.query(
    `UPDATE meta SET value = value + 1 WHERE name = 'keys_generation'
     RETURNING value, pg_notify('${KEYS_CHANNEL}', value::text)`,
  );
  if (row === undefined) throw new Error("store schema mismatch: meta.keys_generation is gone");
  return num(row, "value");
}
