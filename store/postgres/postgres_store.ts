/**
 * `PostgresStore`: the `Store` on Postgres, for several gatehouse instances sharing one
 * database. Keys and teams (`key_registry.ts`), the batched ledger that survives an outage
 * (`ledger.ts`), reports (`usage_report.ts`) and Responses chains (`responses.ts`) all run over a
 * {@link SqlClient}: the `postgres` driver in production, PGlite in tests.
 * @module
 */
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
import { KeysChangedListeners } from "../keys_changed.ts";
import type { SqlClient } from "./sql_client.ts";
import { connectPostgresJs } from "./postgres_js_client.ts";
import { migrate } from "./migrations.ts";
import { type IssuedKey, PostgresKeys } from "./key_registry.ts";
import { type LedgerOptions, PostgresLedger } from "./ledger.ts";
import { consoleStoreLogger, type StoreLogger } from "../store_logger.ts";
import { PostgresReports } from "./usage_report.ts";
import { loadResponse, saveResponse } from "./responses.ts";
import { describePostgresUrl } from "./database_url.ts";

export type { StoreLogger } from "../store_logger.ts";

/** The session advisory lock {@link PostgresStore.holdSoleInstanceLock} takes (arbitrary, fixed,
 * not the migration lock). */
export const SOLE_INSTANCE_LOCK_ID = "7340271102";

/** How long `close` tries to write the queued ledger rows. */
const CLOSE_DEADLINE_MS = 5_000;

/** Options for {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** The clock, in unix milliseconds. Tests pass a fake one. */
  now?: () => number;
  /** How often, in ms, the key generation is polled (default 250). */
  keysCheckIntervalMs?: number;
  /** Where ledger outages are reported (default: the console). */
  log?: StoreLogger;
  /** The ledger's queue bound and retry delays. */
  ledger?: Omit<LedgerOptions, "log">;
  /** The most connections the pool opens (default 10; opened as needed). */
  poolSize?: number;
}

/** The Postgres `Store`. Create it with {@link openPostgresStore} or {@link openPostgresStoreOn}. */
export class PostgresStore implements Store {
  readonly kind = "postgres";
  readonly #client: SqlClient;
  readonly #description: string;
  readonly #keys: PostgresKeys;
  readonly #ledger: PostgresLedger;
  readonly #reports: PostgresReports;
  readonly #changed: KeysChangedListeners;
  #closed: Promise<void> | null = null;

  private constructor(
    client: SqlClient,
    description: string,
    keys: PostgresKeys,
    ledger: PostgresLedger,
    changed: KeysChangedListeners,
  ) {
    this.#client = client;
    this.#description = description;
    this.#keys = keys;
    this.#ledger = ledger;
    this.#reports = new PostgresReports(client, ledger);
    this.#changed = changed;
  }

  /** Opens the store on a migrated database behind `client`. */
  static async create(
    client: SqlClient,
    description: string,
    options: PostgresStoreOptions,
  ): Promise<PostgresStore> {
    const log = options.log ?? consoleStoreLogger;
    const changed = new KeysChangedListeners((error) =>
      log("error", `keys-changed listener: ${error}`)
    );
    const keys = await PostgresKeys.open(client, {
      now: options.now ?? Date.now,
      keysCheckIntervalMs: options.keysCheckIntervalMs,
      onChanged: () => changed.emit(),
    });
    const ledger = new PostgresLedger(client, { ...options.ledger, log });
    return new PostgresStore(client, description, keys, ledger, changed);
  }

  /** `postgres://host:port/database`, without credentials. */
  describe(): string {
    return this.#description;
  }

  /** Takes the sole-instance advisory lock on a connection of its own, held until `close` (or
   * the process dies); false when another process holds it: several instances share this
   * database. */
  holdSoleInstanceLock(): Promise<boolean> {
    return this.#client.holdSessionLock(SOLE_INSTANCE_LOCK_ID);
  }

  createKey(key: string | NewKey): Promise<IssuedKey> {
    return this.#keys.createKey(key);
  }

  listKeys(): Promise<KeyRecord[]> {
    return this.#keys.listKeys();
  }

  getKey(id: string): Promise<KeyRecord | null> {
    return this.#keys.getKey(id);
  }

  updateKey(id: string, patch: KeyPatch): Promise<KeyRecord | null> {
    return this.#keys.updateKey(id, patch);
  }

  revokeKey(id: string): Promise<boolean> {
    return this.#keys.revokeKey(id);
  }

  rotateKey(id: string, graceMs: number): Promise<IssuedKey | null> {
    return this.#keys.rotateKey(id, graceMs);
  }

  checkKey(presented: string): Promise<KeyCheck> {
    return this.#keys.checkKey(presented);
  }

  async verifyKey(presented: string): Promise<KeyRecord | null> {
    const check = await this.#keys.checkKey(presented);
    return "record" in check ? check.record : null;
  }

  forgetVerifiedKeys(): void {
    this.#keys.forgetVerified();
  }

  onKeysChanged(listener: () => void): () => void {
    return this.#changed.add(listener);
  }

  /** Every key ever created, revoked ones included. */
  countKeys(): Promise<number> {
    return this.#keys.countKeys();
  }

  createTeam(id: string, policy: Policy): Promise<TeamRecord> {
    return this.#keys.createTeam(id, policy);
  }

  listTeams(): Promise<TeamRecord[]> {
    return this.#keys.listTeams();
  }

  getTeam(id: string): Promise<TeamRecord | null> {
    return this.#keys.getTeam(id);
  }

  updateTeam(id: string, policy: Policy): Promise<TeamRecord | null> {
    return this.#keys.updateTeam(id, policy);
  }

  deleteTeam(id: string): Promise<boolean> {
    return this.#keys.deleteTeam(id);
  }

  recordUsage(record: UsageRecord): Promise<void> {
    try {
      this.#ledger.record(record);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  usageReport(query: UsageQuery): Promise<UsageReport> {
    return this.#reports.report(query);
  }

  spend(query: SpendQuery): Promise<number> {
    return this.#reports.spend(query);
  }

  usageSeries(query: SeriesQuery): Promise<UsageSeries> {
    return this.#reports.series(query);
  }

  listRequests(query: RequestQuery): Promise<RequestRow[]> {
    return this.#reports.list(query);
  }

  /** Stores a response; throws when its id already belongs to another key. */
  saveResponse(response: StoredResponse): Promise<void> {
    return saveResponse(this.#client, response);
  }

  loadResponse(id: string, keyId: string): Promise<StoredResponse | null> {
    return loadResponse(this.#client, id, keyId);
  }

  /** Writes the queued ledger rows (for up to 5 s), then closes the connections; later calls
   * wait for the same close. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      await this.#ledger.close(CLOSE_DEADLINE_MS);
      await this.#keys.close();
      await this.#client.close();
    })();
    return this.#closed;
  }
}

/** Migrates the database behind `client` and opens the store on it; closes `client` when either
 * fails. `description` is what `describe()` says. */
export async function openPostgresStoreOn(
  client: SqlClient,
  description: string,
  options: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  try {
    await migrate(client);
    return await PostgresStore.create(client, description, options);
  } catch (error) {
    await client.close().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`could not open the Postgres store at ${description}: ${reason}`, {
      cause: error,
    });
  }
}

/** Connects to the database at `url`, migrates it and opens the store. */
export function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  try {
    const client = connectPostgresJs(url, { max: options.poolSize });
    return openPostgresStoreOn(client, describePostgresUrl(url), options);
  } catch (error) {
    // The driver's own parse errors may quote the URL: say only where it pointed.
    return Promise.reject(
      new Error(`could not open the Postgres store at ${describePostgresUrl(url)}`, {
        cause: error,
      }),
    );
  }
}
