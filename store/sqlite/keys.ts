/**
 * The `api_keys` table: insert, list, revoke, look up by id, touch `last_used_at`.
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { KeyRecord } from "../store.ts";
import { num, numOrNull, type Row, text } from "./rows.ts";

/** A key row with its stored hash; never leaves the store. */
export interface KeyRow {
  record: KeyRecord;
  keyHash: string;
}

const COLUMNS = "id, name, key_hash, hint, created_at, revoked_at, last_used_at";

function toRecord(row: Row): KeyRecord {
  return {
    id: text(row, "id"),
    name: text(row, "name"),
    hint: text(row, "hint"),
    createdAt: num(row, "created_at"),
    revokedAt: numOrNull(row, "revoked_at"),
    lastUsedAt: numOrNull(row, "last_used_at"),
  };
}

/** Prepared statements over `api_keys`, created once per connection. */
export class KeyTable {
  readonly #insert: StatementSync;
  readonly #list: StatementSync;
  readonly #byId: StatementSync;
  readonly #revoke: StatementSync;
  readonly #touch: StatementSync;
  readonly #count: StatementSync;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(
      `INSERT INTO api_keys (${COLUMNS}) VALUES (?, ?, ?, ?, ?, NULL, NULL)
       ON CONFLICT(id) DO NOTHING`,
    );
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`);
    this.#byId = db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`);
    // COALESCE keeps the first revocation time when a key is revoked twice.
    this.#revoke = db.prepare(
      "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?",
    );
    this.#touch = db.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
    this.#count = db.prepare("SELECT COUNT(*) AS n FROM api_keys");
  }

  /** Inserts a new key; false when the id is already taken. */
  insert(record: KeyRecord, keyHash: string): boolean {
    const { changes } = this.#insert.run(
      record.id,
      record.name,
      keyHash,
      record.hint,
      record.createdAt,
    );
    return Number(changes) === 1;
  }

  /** Every key, oldest first. */
  list(): KeyRecord[] {
    return this.#list.all().map(toRecord);
  }

  /** The row for `id` with its hash, or null. */
  find(id: string): KeyRow | null {
    const row = this.#byId.get(id);
    return row === undefined ? null : { record: toRecord(row), keyHash: text(row, "key_hash") };
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
