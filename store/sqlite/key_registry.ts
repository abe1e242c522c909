/**
 * Keys and teams on one SQLite connection: every change in its own transaction that also bumps
 * the key generation, and the check of a presented key with the verified-key memory in front of
 * the database. Synchronous; `SqliteStore` wraps each call in a promise.
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Policy } from "../../governance/policy.ts";
import type { KeyCheck, KeyPatch, KeyRecord, NewKey, TeamRecord } from "../store.ts";
import { generateApiKey, generateApiKeyFor, parseKeyId } from "../api_key.ts";
import { VerifiedKeys } from "../verified_keys.ts";
import { KeyTable } from "./keys.ts";
import { TeamTable } from "./teams.ts";
import { KeysGeneration } from "./generation.ts";
import {
  checkRotationGrace,
  checkTeamId,
  ID_ATTEMPTS,
  noFreeKeyId,
  teamExists,
  teamHasMembers,
  teamMissing,
} from "../key_rules.ts";
import {
  type IssuedKey,
  KeyCheckMemory,
  keySpec,
  matchKeyRow,
  newKeyRecord,
  patchedFields,
  UNKNOWN,
} from "../key_registry_core.ts";

export { LAST_USED_RESOLUTION_MS } from "../key_rules.ts";
export type { IssuedKey } from "../key_registry_core.ts";

/** Options for {@link KeyRegistry}. */
export interface KeyRegistryOptions {
  /** The clock, in unix milliseconds. */
  now: () => number;
  /** How often the key generation is read while verified keys are remembered (default 250). */
  keysCheckIntervalMs?: number;
  /** Called after each committed key or team change. */
  onChanged?: () => void;
}

/** Keys and teams over one connection. */
export class KeyRegistry {
  readonly #db: DatabaseSync;
  readonly #now: () => number;
  readonly #keys: KeyTable;
  readonly #teams: TeamTable;
  readonly #generation: KeysGeneration;
  readonly #memory: KeyCheckMemory;
  readonly #onChanged: () => void;

  constructor(db: DatabaseSync, options: KeyRegistryOptions) {
    this.#db = db;
    this.#now = options.now;
    this.#onChanged = options.onChanged ?? (() => {});
    this.#keys = new KeyTable(db);
    this.#teams = new TeamTable(db);
    this.#generation = new KeysGeneration(db);
    this.#memory = new KeyCheckMemory(
      new VerifiedKeys({
        generation: () => this.#generation.read(),
        checkIntervalMs: options.keysCheckIntervalMs,
      }),
    );
  }

  /** Creates a key; throws when its team does not exist. */
  createKey(key: string | NewKey): IssuedKey {
    const spec = keySpec(key);
    return this.#change(() => {
      if (spec.team !== undefined && spec.team !== null) this.#requireTeam(spec.team);
      for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
        const generated = generateApiKey();
        const record = newKeyRecord(spec, generated, this.#now());
        if (this.#keys.insert(record, generated.hash)) {
          return { record: this.#keys.find(record.id)?.record ?? record, key: generated.key };
        }
      }
      throw noFreeKeyId();
    });
  }

  /** Every key, oldest first, revoked ones included. */
  listKeys(): KeyRecord[] {
    return this.#keys.list();
  }

  /** One key by id, or null. */
  getKey(id: string): KeyRecord | null {
    return this.#keys.find(id)?.record ?? null;
  }

  /** Applies `patch`; the new record, or null when no such key. Throws when the named team does
   * not exist. */
  updateKey(id: string, patch: KeyPatch): KeyRecord | null {
    return this.#change(() => {
      const current = this.#keys.find(id)?.record;
      if (current === undefined) return null;
      if (patch.team !== undefined && patch.team !== null) this.#requireTeam(patch.team);
      this.#keys.update(id, patchedFields(current, patch));
      return this.getKey(id);
    }, (result) => result !== null);
  }

  /** Revokes a key; false when no such key. */
  revokeKey(id: string): boolean {
    this.#memory.forgetTouch(id);
    return this.#change(() => this.#keys.revoke(id, this.#now()), (revoked) => revoked);
  }

  /** A new secret for key `id`; the old one is accepted for `graceMs` more. Null when no such key
   * or it is revoked. */
  rotateKey(id: string, graceMs: number): IssuedKey | null {
    checkRotationGrace(graceMs);
    return this.#change(() => {
      const current = this.#keys.find(id)?.record;
      if (current === undefined || current.revokedAt !== null) return null;
      const generated = generateApiKeyFor(id);
      const now = this.#now();
      if (!this.#keys.rotate(id, generated.hash, generated.hint, now, now + graceMs)) return null;
      const record = this.getKey(id);
      return record === null ? null : { record, key: generated.key };
    }, (result) => result !== null);
  }

  /**
   * Checks a presented key: looks it up by its public id, compares its SHA-256 with both stored
   * hashes in constant time, then judges the record (`keyVerdict`). A key that verified is
   * remembered (`VerifiedKeys`); `last_used_at` is refreshed at most once a minute per key.
   */
  checkKey(presented: string): KeyCheck {
    const id = parseKeyId(presented);
    if (id === null) return UNKNOWN;
    const now = this.#now();
    const remembered = this.#memory.recall(id, presented);
    const found = remembered ?? matchKeyRow(presented, this.#keys.find(id));
    if (found === null) return UNKNOWN;
    const verdict = this.#memory.judge(id, found, remembered !== null, now);
    if (!("record" in verdict)) return verdict;
    if (remembered === null) this.#memory.remember(id, presented, found);
    if (!this.#memory.touchDue(id, found.record, now)) return verdict;
    this.#keys.touch(id, now);
    this.#memory.touching(id, now);
    return this.#memory.used(id, found.record, now);
  }

  /** Forgets every verified key now. */
  forgetVerified(): void {
    this.#memory.reset(this.#generation.read());
  }

  /** Every key ever created, revoked ones included. */
  countKeys(): number {
    return this.#keys.count();
  }

  /** Creates a team; throws when the id is malformed or taken. */
  createTeam(id: string, policy: Policy): TeamRecord {
    checkTeamId(id);
    return this.#change(() => {
      const now = this.#now();
      const record: TeamRecord = { id, policy, createdAt: now, updatedAt: now };
      if (!this.#teams.insert(record)) throw teamExists(id);
      return this.#teams.find(id) ?? record;
    });
  }

  /** Every team, by id. */
  listTeams(): TeamRecord[] {
    return this.#teams.list();
  }

  /** One team, or null. */
  getTeam(id: string): TeamRecord | null {
    return this.#teams.find(id);
  }

  /** Replaces a team's policy; null when no such team. */
  updateTeam(id: string, policy: Policy): TeamRecord | null {
    return this.#change(
      () => this.#teams.update(id, policy, this.#now()) ? this.#teams.find(id) : null,
      (result) => result !== null,
    );
  }

  /** Deletes a team; false when none. Throws while keys that are not revoked belong to it
   * (revoked ones keep its id, so reports by team still count their history). */
  deleteTeam(id: string): boolean {
    return this.#change(() => {
      if (this.#teams.find(id) === null) return false;
      const members = this.#teams.liveMembers(id);
      if (members > 0) throw teamHasMembers(id, members);
      return this.#teams.delete(id);
    }, (deleted) => deleted);
  }

  #requireTeam(id: string): void {
    if (this.#teams.find(id) === null) throw teamMissing(id);
  }

  /**
   * Runs `work` in a write transaction; when `changed` says it changed something, bumps the key
   * generation in the same transaction and, once committed, clears this connection's memory of
   * verified keys. A throw rolls everything back.
   */
  #change<T>(work: () => T, changed: (result: T) => boolean = () => true): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      const generation = changed(result) ? this.#generation.bump() : null;
      this.#db.exec("COMMIT");
      if (generation !== null) {
        this.#memory.reset(generation);
        this.#onChanged();
      }
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      throw error;
    }
  }
}
