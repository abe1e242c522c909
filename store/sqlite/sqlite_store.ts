/**
 * `SqliteStore`: the embedded `Store` on `node:sqlite`. One synchronous connection; every call
 * runs to completion on the event loop, so concurrent requests never interleave inside one.
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Policy } from "../../governance/policy.ts";
import type {
  KeyCheck,
  KeyPatch,
  KeyRecord,
  NewKey,
  RequestQuery,
  RequestRow,
  SeriesQuery,
  SpendQuery,
  Store,
  StoredResponse,
  TeamRecord,
  UsageQuery,
  UsageRecord,
  UsageReport,
  UsageSeries,
} from "../store.ts";
import { MEMORY_PATH, openDatabase } from "./open.ts";
import { type IssuedKey, KeyRegistry } from "./key_registry.ts";
import { UsageLedger } from "./usage.ts";
import { WalCheckpointer } from "./wal_checkpointer.ts";
import { UsageReports } from "./usage_report.ts";
import { ResponseTable } from "./responses.ts";
import { RequestLog } from "./requests.ts";
import { KeysChangedListeners } from "../keys_changed.ts";
import { consoleStoreLogger, type StoreLogger } from "../store_logger.ts";

export { LAST_USED_RESOLUTION_MS } from "./key_registry.ts";

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
  /** How often, in (real) milliseconds, the key generation is read again while verified keys
   * are remembered: the most a key or team change by another connection goes unseen. Default
   * `KEYS_CHECK_INTERVAL_MS` (250); 0 reads it before every remembered key is used. */
  keysCheckIntervalMs?: number;
  /** A file store starts its checkpoint worker at once rather than at the first ledger commit
   * (see `OpenStoreOptions`). */
  checkpointsFromOpen?: boolean;
  /** Where the checkpoint worker's failure is reported (default: the console). */
  log?: StoreLogger;
}

/** The SQLite `Store`. Create it with `openSqliteStore`. */
export class SqliteStore implements Store {
  readonly kind = "sqlite";
  readonly #path: string;
  readonly #db: DatabaseSync;
  readonly #changed = new KeysChangedListeners();
  readonly #keys: KeyRegistry;
  readonly #usage: UsageLedger;
  readonly #reports: UsageReports;
  readonly #requests: RequestLog;
  readonly #responses: ResponseTable;
  /** A file database's checkpoints, off the event loop; null in memory. */
  readonly #checkpointer: WalCheckpointer | null;

  /** `path` is what {@link describe} says: the file path, or `:memory:`; a file's log is
   * checkpointed by a worker from the first ledger commit, or from open with
   * `checkpointsFromOpen` (`wal_checkpointer.ts`). */
  constructor(db: DatabaseSync, options: SqliteStoreOptions = {}, path = "") {
    this.#db = db;
    this.#path = path;
    this.#keys = new KeyRegistry(db, {
      now: options.now ?? Date.now,
      keysCheckIntervalMs: options.keysCheckIntervalMs,
      onChanged: () => this.#changed.emit(),
    });
    const file = path !== "" && path !== MEMORY_PATH;
    const log = options.log ?? consoleStoreLogger;
    this.#checkpointer = file
      ? new WalCheckpointer(db, path, { onFallback: (reason) => log("warn", reason) })
      : null;
    if (options.checkpointsFromOpen) this.#checkpointer?.start();
    this.#usage = new UsageLedger(db, () => this.#checkpointer?.committed());
    this.#reports = new UsageReports(db, this.#usage);
    this.#requests = new RequestLog(db, this.#usage);
    this.#responses = new ResponseTable(db);
  }

  /** The file path (or `:memory:`). */
  describe(): string {
    return this.#path;
  }

  createKey(key: string | NewKey): Promise<IssuedKey> {
    return settle(() => this.#keys.createKey(key));
  }

  listKeys(): Promise<KeyRecord[]> {
    return settle(() => this.#keys.listKeys());
  }

  getKey(id: string): Promise<KeyRecord | null> {
    return settle(() => this.#keys.getKey(id));
  }

  updateKey(id: string, patch: KeyPatch): Promise<KeyRecord | null> {
    return settle(() => this.#keys.updateKey(id, patch));
  }

  revokeKey(id: string): Promise<boolean> {
    return settle(() => this.#keys.revokeKey(id));
  }

  rotateKey(id: string, graceMs: number): Promise<IssuedKey | null> {
    return settle(() => this.#keys.rotateKey(id, graceMs));
  }

  checkKey(presented: string): Promise<KeyCheck> {
    return settle(() => this.#keys.checkKey(presented));
  }

  verifyKey(presented: string): Promise<KeyRecord | null> {
    return settle(() => {
      const check = this.#keys.checkKey(presented);
      return "record" in check ? check.record : null;
    });
  }

  forgetVerifiedKeys(): void {
    if (this.#db.isOpen) this.#keys.forgetVerified();
  }

  onKeysChanged(listener: () => void): () => void {
    return this.#changed.add(listener);
  }

  /** Every key ever created, revoked ones included. */
  countKeys(): Promise<number> {
    return settle(() => this.#keys.countKeys());
  }

  createTeam(id: string, policy: Policy): Promise<TeamRecord> {
    return settle(() => this.#keys.createTeam(id, policy));
  }

  listTeams(): Promise<TeamRecord[]> {
    return settle(() => this.#keys.listTeams());
  }

  getTeam(id: string): Promise<TeamRecord | null> {
    return settle(() => this.#keys.getTeam(id));
  }

  updateTeam(id: string, policy: Policy): Promise<TeamRecord | null> {
    return settle(() => this.#keys.updateTeam(id, policy));
  }

  deleteTeam(id: string): Promise<boolean> {
    return settle(() => this.#keys.deleteTeam(id));
  }

  recordUsage(record: UsageRecord): Promise<void> {
    return settle(() => this.#usage.record(record));
  }

  usageReport(query: UsageQuery): Promise<UsageReport> {
    return settle(() => this.#reports.report(query));
  }

  spend(query: SpendQuery): Promise<number> {
    return settle(() => this.#reports.spend(query));
  }

  usageSeries(query: SeriesQuery): Promise<UsageSeries> {
    return settle(() => this.#reports.series(query));
  }

  listRequests(query: RequestQuery): Promise<RequestRow[]> {
    return settle(() => this.#requests.list(query));
  }

  /** Stores a response; throws when its id already belongs to another key. */
  saveResponse(response: StoredResponse): Promise<void> {
    return settle(() => this.#responses.save(response));
  }

  loadResponse(id: string, keyId: string): Promise<StoredResponse | null> {
    return settle(() => this.#responses.load(id, keyId));
  }

  /** Stops the checkpoint worker, writes the queued rows and closes the connection; later calls
   * are no-ops. */
  async close(): Promise<void> {
    // The worker first: the last commit must not start one (35 ms) only to stop it, and rows
    // recorded while it stops are in the flush.
    await this.#checkpointer?.close();
    try {
      await settle(() => this.#usage.flush());
    } finally {
      if (this.#db.isOpen) this.#db.close();
    }
  }
}

/**
 * Opens the SQLite store at `path` (`:memory:` for a private in-memory one), creating the
 * parent directory and running migrations as needed.
 */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  return new SqliteStore(openDatabase(path), options, path);
}
