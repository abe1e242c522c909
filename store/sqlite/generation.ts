/**
 * `meta.keys_generation`: a counter every key or team change bumps in its own transaction, so
 * any connection to the file can tell with one cheap read that what it remembers of keys is
 * stale (`VerifiedKeys`).
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { num } from "./rows.ts";

/** Prepared statements over the `keys_generation` row, created once per connection. */
export class KeysGeneration {
  readonly #read: StatementSync;
  readonly #bump: StatementSync;

  constructor(db: DatabaseSync) {
    this.#read = db.prepare("SELECT value FROM meta WHERE name = 'keys_generation'");
    this.#bump = db.prepare(
      "UPDATE meta SET value = value + 1 WHERE name = 'keys_generation' RETURNING value",
    );
  }

  /** The current generation. */
  read(): number {
    const row = this.#read.get();
    if (row === undefined) throw new Error("store schema mismatch: meta.keys_generation is gone");
    return num(row, "value");
  }

  /** Adds one; the new generation. Call inside the transaction that made the change. */
  bump(): number {
    const row = this.#bump.get();
    if (row === undefined) throw new Error("store schema mismatch: meta.keys_generation is gone");
    return num(row, "value");
  }
}
