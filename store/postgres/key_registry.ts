/**
 * Keys and teams in Postgres: the same rules as SQLite's registry (`../key_rules.ts`,
 * `keyVerdict`, constant-time hash checks, the verified-key memory, `last_used_at` at most once
 * a minute), every change in one transaction that bumps the key generation and NOTIFYs it.
 *
 * `VerifiedKeys` reads the generation synchronously, so this keeps a cached copy: read at start,
 * re-read every `keysCheckIntervalMs` by a background poll, and replaced at once by the
 * `gatehouse_keys` notifications of any instance's change (the poll covers a dropped LISTEN).
 * @module
 */
import type { Policy } from "../../governance/policy.ts";
import type { KeyCheck, KeyPatch, KeyRecord, NewKey, TeamRecord } from "../store.ts";
import { generateApiKey, generateApiKeyFor, parseKeyId } from "../api_key.ts";
import { keyVerdict } from "../key_verdict.ts";
import { KEYS_CHECK_INTERVAL_MS, type VerifiedKey, VerifiedKeys } from "../verified_keys.ts";
import {
  checkRotationGrace,
  checkTeamId,
  ID_ATTEMPTS,
  noFreeKeyId,
  teamExists,
  teamHasMembers,
  teamMissing,
} from "../key_rules.ts";
import type { SqlClient, SqlQueries } from "./sql_client.ts";
import * as sql from "./key_sql.ts";
import {
  type IssuedKey,
  KeyCheckMemory,
  keySpec,
  matchKeyRow,
  newKeyRecord,
  patchedFields,
  UNKNOWN,
} from "../key_registry_core.ts";

export type { IssuedKey } from "../key_registry_core.ts";

/** Options for {@link PostgresKeys}. */
export interface PostgresKeysOptions {
  now: () => number;
  /** How often the generation is polled, in ms (default 250). */
  keysCheckIntervalMs?: number;
  /** Called after each committed change made through this registry. */
  onChanged: () => void;
}

/** Keys and teams over one client. Create with {@link PostgresKeys.open}. */
export class PostgresKeys {
  readonly #db: SqlClient;
  readonly #now: () => number;
  readonly #onChanged: () => void;
  readonly #memory: KeyCheckMemory;
  #generation: number;
  /** Bumped whenever the memory is cleared: a record read before a clear is not remembered. */
  #epoch = 0;
  #poll: ReturnType<typeof setInterval> | undefined;
  #unlisten: (() => Promise<void>) | null = null;

  private constructor(db: SqlClient, generation: number, options: PostgresKeysOptions) {
    this.#db = db;
    this.#now = options.now;
    this.#onChanged = options.onChanged;
    this.#generation = generation;
    // The memory checks the cached generation before each use; the poll keeps it fresh.
    this.#memory = new KeyCheckMemory(
      new VerifiedKeys({ generation: () => this.#generation, checkIntervalMs: 0 }),
    );
  }

  /** Reads the generation, listens for changes and starts the poll. */
  static async open(db: SqlClient, options: PostgresKeysOptions): Promise<PostgresKeys> {
    const keys = new PostgresKeys(db, await sql.readGeneration(db), options);
    keys.#unlisten = await db.listen(sql.KEYS_CHANNEL, (payload) => {
      const generation = Number(payload);
      if (Number.isFinite(generation)) keys.#seen(generation);
    });
    const interval = options.keysCheckIntervalMs ?? KEYS_CHECK_INTERVAL_MS;
    const poll = setInterval(() => {
      sql.readGeneration(db).then((g) => keys.#seen(g), () => {});
    }, Math.max(interval, 10));
    Deno.unrefTimer(Number(poll));
    keys.#poll = poll;
    return keys;
  }

  /** Stops the poll and the LISTEN. */
  async close(): Promise<void> {
    clearInterval(this.#poll);
    const unlisten = this.#unlisten;
    this.#unlisten = null;
    await unlisten?.().catch(() => {});
  }

  /** Forgets every verified key now. */
  forgetVerified(): void {
    this.#epoch++;
    this.#memory.reset(this.#generation);
  }

  createKey(key: string | NewKey): Promise<IssuedKey> {
    const spec = keySpec(key);
    return this.#change(async (tx) => {
      if (spec.team !== undefined && spec.team !== null) await requireTeam(tx, spec.team);
      for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
        const generated = generateApiKey();
        const record = newKeyRecord(spec, generated, this.#now());
        if (await sql.insertKey(tx, record, generated.hash)) {
          const stored = await sql.findKey(tx, record.id);
          return { record: stored?.record ?? record, key: generated.key };
        }
      }
      throw noFreeKeyId();
    });
  }

  async listKeys(): Promise<KeyRecord[]> {
    return await sql.listKeys(this.#db);
  }

  async getKey(id: string): Promise<KeyRecord | null> {
    return (await sql.findKey(this.#db, id))?.record ?? null;
  }

  updateKey(id: string, patch: KeyPatch): Promise<KeyRecord | null> {
    return this.#change(async (tx) => {
      const current = (await sql.findKey(tx, id))?.record;
      if (current === undefined) return null;
      if (patch.team !== undefined && patch.team !== null) await requireTeam(tx, patch.team);
      await sql.updateKey(tx, id, patchedFields(current, patch));
      return (await sql.findKey(tx, id))?.record ?? null;
    }, (result) => result !== null);
  }

  revokeKey(id: string): Promise<boolean> {
    this.#memory.forgetTouch(id);
    return this.#change((tx) => sql.revokeKey(tx, id, this.#now()), (revoked) => revoked);
  }

  async rotateKey(id: string, graceMs: number): Promise<IssuedKey | null> {
    checkRotationGrace(graceMs);
    return await this.#change(async (tx) => {
      const current = (await sql.findKey(tx, id))?.record;
      if (current === undefined || current.revokedAt !== null) return null;
      const generated = generateApiKeyFor(id);
      const now = this.#now();
      const change = { hash: generated.hash, hint: generated.hint, now, validUntil: now + graceMs };
      if (!await sql.rotateKey(tx, id, change)) return null;
      const record = (await sql.findKey(tx, id))?.record ?? null;
      return record === null ? null : { record, key: generated.key };
    }, (result) => result !== null);
  }

  /** Checks a presented key as SQLite's registry does; a key that verified is remembered. */
  async checkKey(presented: string): Promise<KeyCheck> {
    const id = parseKeyId(presented);
    if (id === null) return UNKNOWN;
    const remembered = this.#memory.recall(id, presented);
    const found = remembered ?? await this.#read(id, presented);
    if (found === null) return UNKNOWN;
    const now = this.#now();
    const verdict = this.#memory.judge(id, found, remembered !== null, now);
    if (!("record" in verdict) || !this.#memory.touchDue(id, found.record, now)) return verdict;
    // Noted before the write, so checks meanwhile do not write it again.
    this.#memory.touching(id, now);
    await sql.touchKey(this.#db, id, now);
    return this.#memory.used(id, found.record, now);
  }

  /** Reads key `id` and matches `presented` against its hashes; a live key is remembered unless
   * a change was seen while the row was read. */
  async #read(id: string, presented: string): Promise<VerifiedKey | null> {
    const epoch = this.#epoch;
    const found = matchKeyRow(presented, await sql.findKey(this.#db, id));
    if (found === null) return null;
    const verdict = keyVerdict(found.record, found.matched, this.#now());
    // A change seen while the row was read may postdate it: then it is not remembered.
    if ("record" in verdict && epoch === this.#epoch) this.#memory.remember(id, presented, found);
    return found;
  }

  countKeys(): Promise<number> {
    return sql.countKeys(this.#db);
  }

  async createTeam(id: string, policy: Policy): Promise<TeamRecord> {
    checkTeamId(id);
    return await this.#change(async (tx) => {
      const now = this.#now();
      const record: TeamRecord = { id, policy, createdAt: now, updatedAt: now };
      if (!await sql.insertTeam(tx, record)) throw teamExists(id);
      return await sql.findTeam(tx, id) ?? record;
    });
  }

  listTeams(): Promise<TeamRecord[]> {
    return sql.listTeams(this.#db);
  }

  getTeam(id: string): Promise<TeamRecord | null> {
    return sql.findTeam(this.#db, id);
  }

  updateTeam(id: string, policy: Policy): Promise<TeamRecord | null> {
    return this.#change(
      (tx) => sql.updateTeam(tx, id, policy, this.#now()),
      (result) => result !== null,
    );
  }

  /** Deletes a team; false when none. Throws while keys that are not revoked belong to it. */
  deleteTeam(id: string): Promise<boolean> {
    return this.#change(async (tx) => {
      if (await sql.findTeam(tx, id) === null) return false;
      const members = await sql.liveMembers(tx, id);
      if (members > 0) throw teamHasMembers(id, members);
      return await sql.deleteTeam(tx, id);
    }, (deleted) => deleted);
  }

  #seen(generation: number): void {
    // The generation only grows: an older value is a late notification.
    if (generation <= this.#generation) return;
    this.#generation = generation;
    this.forgetVerified();
  }

  /**
   * Runs `work` in a transaction; when `changed` says it changed something, bumps (and
   * announces) the key generation in the same transaction and, once committed, clears this
   * store's memory of verified keys and tells the listeners.
   */
  async #change<T>(
    work: (tx: SqlQueries) => Promise<T>,
    changed: (result: T) => boolean = () => true,
  ): Promise<T> {
    const { result, generation } = await this.#db.transaction(async (tx) => {
      const result = await work(tx);
      return { result, generation: changed(result) ? await sql.bumpGeneration(tx) : null };
    });
    if (generation !== null) {
      this.#generation = Math.max(this.#generation, generation);
      this.forgetVerified();
      this.#onChanged();
    }
    return result;
  }
}

async function requireTeam(tx: SqlQueries, id: string): Promise<void> {
  if (await sql.findTeam(tx, id) === null) throw teamMissing(id);
}
