/**
 * `SqliteStore`: the embedded `Store` on `node:sqlite`. One synchronous connection; every call
 * runs to completion on the event loop, so concurrent requests never interleave inside one.
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type {
  KeyRecord,
  Store,
  StoredResponse,
  UsageQuery,
  UsageRecord,
  UsageReport,
} from "../store.ts";
import { generateApiKey, matchesStoredHash, parseKeyId } from "../api_key.ts";
import { openDatabase } from "./open.ts";
import { KeyTable } from "./keys.ts";
import { UsageLedger } from "./usage.ts";
import { ResponseTable } from "./responses.ts";
import { VerifiedKeys } from "../verified_keys.ts";

/** `last_used_at` is written at most this often per key, so verifying is almost always a read. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** How many fresh ids to try when a generated id is already taken (50 random bits each). */
const ID_ATTEMPTS = 5;

/** Runs synchronous database work, turning a throw into a rejected promise. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Options for `openSqliteStore`. */
export interface SqliteStoreOptions {
  /** The clock, in unix milliseconds. Tests pass a fake one. */
  now?: () => number;
}

/** The SQLite `Store`. Create it with `openSqliteStore`. */
export class SqliteStore implements Store {
  readonly #db: DatabaseSync;
  readonly #now: () => number;
  readonly #keys: KeyTable;
  readonly #usage: UsageLedger;
  readonly #responses: ResponseTable;
  /** Last `last_used_at` written per key id by this process. */
  readonly #touched = new Map<string, number>();
  readonly #verified = new VerifiedKeys();

  constructor(db: DatabaseSync, options: SqliteStoreOptions = {}) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
    this.#keys = new KeyTable(db);
    this.#usage = new UsageLedger(db);
    this.#responses = new ResponseTable(db);
  }

  createKey(name: string): Promise<{ record: KeyRecord; key: string }> {
    return settle(() => this.#createKey(name));
  }

  #createKey(name: string): { record: KeyRecord; key: string } {
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const generated = generateApiKey();
      const record: KeyRecord = {
        id: generated.id,
        name,
        hint: generated.hint,
        createdAt: this.#now(),
        revokedAt: null,
        lastUsedAt: null,
      };
      if (this.#keys.insert(record, generated.hash)) return { record, key: generated.key };
    }
    throw new Error(`could not find a free key id after ${ID_ATTEMPTS} attempts`);
  }

  listKeys(): Promise<KeyRecord[]> {
    return settle(() => this.#keys.list());
  }

  revokeKey(id: string): Promise<boolean> {
    this.#touched.delete(id);
    this.#verified.forget(id);
    return settle(() => this.#keys.revoke(id, this.#now()));
  }

  /**
   * Looks the key up by its public id, then compares SHA-256 digests in constant time.
   * Revoked keys never verify. `last_used_at` is refreshed at most once a minute per key. A key
   * that verified is remembered for a few seconds (`VerifiedKeys`).
   */
  verifyKey(presented: string): Promise<KeyRecord | null> {
    return settle(() => this.#verifyKey(presented));
  }

  #verifyKey(presented: string): KeyRecord | null {
    const id = parseKeyId(presented);
    if (id === null) return null;
    const now = this.#now();
    let record = this.#verified.get(id, presented, now);
    if (record === null) {
      const row = this.#keys.find(id);
      const matches = matchesStoredHash(presented, row?.keyHash ?? null);
      if (!matches || row === null || row.record.revokedAt !== null) return null;
      record = row.record;
      this.#verified.set(id, presented, record, now);
    }
    const last = Math.max(this.#touched.get(id) ?? 0, record.lastUsedAt ?? 0);
    if (now - last < LAST_USED_RESOLUTION_MS) return record;
    this.#keys.touch(id, now);
    this.#touched.set(id, now);
    const touched = { ...record, lastUsedAt: now };
    this.#verified.update(id, touched);
    return touched;
  }

  /** Every key ever created, revoked ones included. */
  countKeys(): Promise<number> {
    return settle(() => this.#keys.count());
  }

  recordUsage(record: UsageRecord): Promise<void> {
    return settle(() => this.#usage.record(record));
  }

  usageReport(query: UsageQuery): Promise<UsageReport> {
    return settle(() => this.#usage.report(query));
  }

  /** Stores a response; throws when its id already belongs to another key. */
  saveResponse(response: StoredResponse): Promise<void> {
    return settle(() => this.#responses.save(response));
  }

  loadResponse(id: string, keyId: string): Promise<StoredResponse | null> {
    return settle(() => this.#responses.load(id, keyId));
  }

  /** Closes the connection; later calls are no-ops. */
  close(): Promise<void> {
    return settle(() => {
      this.#usage.flush();
      if (this.#db.isOpen) this.#db.close();
    });
  }
}

/**
 * Opens the SQLite store at `path` (`:memory:` for a private in-memory one), creating the
 * parent directory and running migrations as needed.
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  return new SqliteStore(openDatabase(path), options);
}
