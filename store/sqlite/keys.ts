/**
 * The `api_keys` table: insert, list, look up by id (with the team's policy), update, rotate,
 * revoke, touch `last_used_at`.
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { KeyRecord } from "../store.ts";
import { num, type Row, SQLITE_CELLS } from "./rows.ts";
import { writePolicy } from "../policy_json.ts";
import {
  type KeyFields,
  keyRecordFrom,
  type KeyRow,
  keyRowFrom,
  SELECT_KEY as SELECT,
} from "../record_rows.ts";

export type { KeyFields, KeyRow } from "../record_rows.ts";

function toRecord(row: Row): KeyRecord {
  return keyRecordFrom(row, SQLITE_CELLS);
}

/** Prepared statements over `api_keys`, created once per connection. */
export class KeyTable {
  readonly #insert: StatementSync;
  readonly #list: StatementSync;
  readonly #byId: StatementSync;
  readonly #update: StatementSync;
  readonly #rotate: StatementSync;
  readonly #revoke: StatementSync;
  readonly #touch: StatementSync;
  readonly #count: StatementSync;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(
      `INSERT INTO api_keys (id, name, key_hash, hint, created_at, admin, team, policy)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
    );
    this.#list = db.prepare(`${SELECT} ORDER BY k.created_at, k.id`);
    this.#byId = db.prepare(`${SELECT} WHERE k.id = ?`);
    this.#update = db.prepare(
      "UPDATE api_keys SET name = ?, admin = ?, team = ?, policy = ? WHERE id = ?",
    );
    // The right-hand sides read the row as it was: the old key_hash becomes the previous one.
    this.#rotate = db.prepare(
      `UPDATE api_keys SET prev_key_hash = key_hash, key_hash = ?, hint = ?, rotated_at = ?,
         prev_valid_until = ? WHERE id = ? AND revoked_at IS NULL`,
    );
    // COALESCE keeps the first revocation time when a key is revoked twice.
    this.#revoke = db.prepare(
      "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?",
    );
    this.#touch = db.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
    this.#count = db.prepare("SELECT COUNT(*) AS n FROM api_keys");
  }

  /** Inserts a new key (its revocation, use and rotation fields are not written); false when the
   * id is already taken. */
  insert(record: KeyRecord, keyHash: string): boolean {
    const { changes } = this.#insert.run(
      record.id,
      record.name,
      keyHash,
      record.hint,
      record.createdAt,
      record.admin ? 1 : 0,
      record.team,
      writePolicy(record.policy),
    );
    return Number(changes) === 1;
  }

  /** Every key, oldest first. */
  list(): KeyRecord[] {
    return this.#list.all().map(toRecord);
  }

  /** The row for `id` with its hashes, or null. */
  find(id: string): KeyRow | null {
    const row = this.#byId.get(id);
    return row === undefined ? null : keyRowFrom(row, SQLITE_CELLS);
  }

  /** Writes a key's name, admin flag, team and policy; false when no such key. */
  update(id: string, fields: KeyFields): boolean {
    const { changes } = this.#update.run(
      fields.name,
      fields.admin ? 1 : 0,
      fields.team,
      writePolicy(fields.policy),
      id,
    );
    return Number(changes) === 1;
  }

  /** Gives a key that is not revoked a new secret; the old one's hash is kept as the previous
   * one, accepted until `validUntil`. False when no such key or it is revoked. */
  rotate(id: string, keyHash: string, hint: string, now: number, validUntil: number): boolean {
    return Number(this.#rotate.run(keyHash, hint, now, validUntil, id).changes) === 1;
  }

  /** Marks a key revoked at `now`; false when no such key. */
  revoke(id: string, now: number): boolean {
    return Number(this.#revoke.run(now, id).changes) === 1;
  }

  /** Sets `last_used_at`. */
  touch(id: string, now: number): void {
    this.#touch.run(now, id);
  }

  /** How many keys exist, revoked ones included. */
  count(): number {
    const row = this.#count.get();
    return row === undefined ? 0 : num(row, "n");
  }
}
