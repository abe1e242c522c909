/**
 * The `responses` table in Postgres: Responses API chains, so a chain started on one instance
 * continues on any other.
 * @module
 */
import type { StoredResponse } from "../store.ts";
import type { SqlQueries } from "./sql_client.ts";
import { PG_CELLS } from "./rows.ts";
import { RESPONSE_COLUMNS, responseFrom, responseIdTaken } from "../record_rows.ts";

/** Stores or replaces a response owned by its key; throws when the id belongs to another key. */
export async function saveResponse(db: SqlQueries, response: StoredResponse): Promise<void> {
  // Saving the same id again replaces it only for the key that owns it; another key's write
  // updates no row, and RETURNING gives nothing back.
  const rows = await db.query(
    `INSERT INTO responses (${RESPONSE_COLUMNS}) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET conversation = excluded.conversation,
       created_at = excluded.created_at
     WHERE responses.key_id = excluded.key_id RETURNING id`,
    [response.id, response.keyId, response.conversation, response.createdAt],
  );
  if (rows.length !== 1) {
    throw responseIdTaken(response.id);
  }
}

/** The response when it exists and belongs to `keyId`, else null. */
export async function loadResponse(
  db: SqlQueries,
  id: string,
  keyId: string,
): Promise<StoredResponse | null> {
  const [row] = await db.query(
    `SELECT ${RESPONSE_COLUMNS} FROM responses WHERE id = $1 AND key_id = $2`,
    [id, keyId],
  );
  return row === undefined ? null : responseFrom(row, PG_CELLS);
}
