/**
 * The `responses` table: stored Responses API conversations for `previous_response_id`.
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { StoredResponse } from "../store.ts";
import { SQLITE_CELLS } from "./rows.ts";
import { RESPONSE_COLUMNS, responseFrom, responseIdTaken } from "../record_rows.ts";

/** Prepared statements over `responses`, created once per connection. */
export class ResponseTable {
  readonly #upsert: StatementSync;
  readonly #load: StatementSync;

  constructor(db: DatabaseSync) {
    // Saving the same id again replaces it only for the key that owns it; another key's
    // write matches no row, which `save` reports as an error.
    this.#upsert = db.prepare(
      `INSERT INTO responses (${RESPONSE_COLUMNS}) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET conversation = excluded.conversation,
         created_at = excluded.created_at
       WHERE responses.key_id = excluded.key_id`,
    );
    this.#load = db.prepare(
      `SELECT ${RESPONSE_COLUMNS} FROM responses WHERE id = ? AND key_id = ?`,
    );
  }

  /** Stores or replaces a response owned by its key. */
  save(response: StoredResponse): void {
    const { changes } = this.#upsert.run(
      response.id,
      response.keyId,
      response.conversation,
      response.createdAt,
    );
    if (Number(changes) !== 1) {
      throw responseIdTaken(response.id);
    }
  }

  /** The response when it exists and belongs to `keyId`, else null. */
  load(id: string, keyId: string): StoredResponse | null {
    const row = this.#load.get(id, keyId);
    return row === undefined ? null : responseFrom(row, SQLITE_CELLS);
  }
}
