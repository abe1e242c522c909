/**
 * Rows of `api_keys`, `teams` and `responses` as records, the same in every store: the key
 * SELECT (with its team's policy), the team and response columns, and one mapping of each row
 * read through the dialect's {@link Cells}.
 * @module
 */
import type { KeyRecord, StoredResponse, TeamRecord } from "./store.ts";
import { readPolicy } from "./policy_json.ts";
import type { Cells } from "./row_cells.ts";

/** A key row with its stored hashes; never leaves the store. */
export interface KeyRow {
  record: KeyRecord;
  keyHash: string;
  /** The hash of the secret before the last rotation, or null. */
  previousHash: string | null;
}

/** The fields a key update writes (the caller merges the patch into the current row). */
export type KeyFields = Pick<KeyRecord, "name" | "admin" | "team" | "policy">;

/** Every column of a key, and its team's policy (NULL without a team). */
export const SELECT_KEY = `
  SELECT k.id, k.name, k.key_hash, k.hint, k.created_at, k.revoked_at, k.last_used_at, k.admin,
    k.team, k.policy, k.rotated_at, k.prev_key_hash, k.prev_valid_until, t.policy AS team_policy
  FROM api_keys k LEFT JOIN teams t ON t.id = k.team`;

/** The columns of a team. */
export const TEAM_COLUMNS = "id, policy, created_at, updated_at";

/** The columns of a stored response. */
export const RESPONSE_COLUMNS = "id, key_id, conversation, created_at";

/** A row of {@link SELECT_KEY} as a record. */
export function keyRecordFrom<R>(row: R, cells: Cells<R>): KeyRecord {
  const teamPolicy = cells.textOrNull(row, "team_policy");
  return {
    id: cells.text(row, "id"),
    name: cells.text(row, "name"),
    hint: cells.text(row, "hint"),
    createdAt: cells.num(row, "created_at"),
    revokedAt: cells.numOrNull(row, "revoked_at"),
    lastUsedAt: cells.numOrNull(row, "last_used_at"),
    admin: cells.bool(row, "admin"),
    team: cells.textOrNull(row, "team"),
    policy: readPolicy(cells.text(row, "policy")),
    teamPolicy: teamPolicy === null ? null : readPolicy(teamPolicy),
    rotatedAt: cells.numOrNull(row, "rotated_at"),
    previousValidUntil: cells.numOrNull(row, "prev_valid_until"),
  };
}

/** A row of {@link SELECT_KEY} as a record with its hashes. */
export function keyRowFrom<R>(row: R, cells: Cells<R>): KeyRow {
  return {
    record: keyRecordFrom(row, cells),
    keyHash: cells.text(row, "key_hash"),
    previousHash: cells.textOrNull(row, "prev_key_hash"),
  };
}

/** A row of {@link TEAM_COLUMNS} as a record. */
export function teamRecordFrom<R>(row: R, cells: Cells<R>): TeamRecord {
  return {
    id: cells.text(row, "id"),
    policy: readPolicy(cells.text(row, "policy")),
    createdAt: cells.num(row, "created_at"),
    updatedAt: cells.num(row, "updated_at"),
  };
}

/** A row of {@link RESPONSE_COLUMNS} as a stored response. */
export function responseFrom<R>(row: R, cells: Cells<R>): StoredResponse {
  return {
    id: cells.text(row, "id"),
    keyId: cells.text(row, "key_id"),
    conversation: cells.text(row, "conversation"),
    createdAt: cells.num(row, "created_at"),
  };
}

/** The refusal to save a response under an id another key owns. */
export function responseIdTaken(id: string): Error {
  return new Error(
    `response id "${id}" already belongs to another key; response ids must be unique`,
  );
}
