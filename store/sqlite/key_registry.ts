/**
 * Keys and teams on one SQLite connection: every change in its own transaction that also bumps
 * the key generation, and the check of a presented key with the verified-key memory in front of
 * the database. Synchronous; `SqliteStore` wraps each call in a promise.
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { Policy } from "../../governance/policy.ts";
import type { KeyCheck, KeyPatch, KeyRecord, NewKey, TeamRecord } from "../store.ts";
import { generateApiKey, generateApiKeyFor, matchStoredHashes, parseKeyId } from "../api_key.ts";
import { keyVerdict } from "../key_verdict.ts";
import { VerifiedKeys } from "../verified_keys.ts";
import { KeyTable } from "./keys.ts";
import { TEAM_ID_PATTERN, TeamTable } from "./teams.ts";
import { KeysGeneration } from "./generation.ts";

/** `last_used_at` is written at most this often per key, so verifying is almost always a read. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** How many fresh ids to try when a generated id is already taken (50 random bits each). */
const ID_ATTEMPTS = 5;

const UNKNOWN: KeyCheck = { reason: "unknown" };

/** Options for {@link KeyRegistry}. */
export interface KeyRegistryOptions {
  /** The clock, in unix milliseconds. */
  now: () => number;
  /** How often the key generation is read while verified keys are remembered (default 250). */
  keysCheckIntervalMs?: number;
}

/** A key with its secret, shown once. */
export interface IssuedKey {
  record: KeyRecord;
  key: string;
}

/** Keys and teams over one connection. */
export class KeyRegistry {
  readonly #db: DatabaseSync;
  readonly #now: () => number;
  readonly #keys: KeyTable;
  readonly #teams: TeamTable;
  readonly #generation: KeysGeneration;
  readonly #verified: VerifiedKeys;
  /** Last `last_used_at` written per key id by this process. */
  readonly #touched = new Map<string, number>();

  constructor(db: DatabaseSync, options: KeyRegistryOptions) {
    this.#db = db;
    this.#now = options.now;
    this.#keys = new KeyTable(db);
    this.#teams = new TeamTable(db);
    this.#generation = new KeysGeneration(db);
    this.#verified = new VerifiedKeys({
      generation: () => this.#generation.read(),
      checkIntervalMs: options.keysCheckIntervalMs,
    });
  }

  /** Creates a key; throws when its team does not exist. */
  createKey(key: string | NewKey): IssuedKey {
    const spec: NewKey = typeof key === "string" ? { name: key } : key;
    return this.#change(() => {
      const team = spec.team ?? null;
      if (team !== null) this.#requireTeam(team);
      for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
        const generated = generateApiKey();
        const record: KeyRecord = {
          id: generated.id,
          name: spec.name,
          hint: generated.hint,
          createdAt: this.#now(),
          revokedAt: null,
          lastUsedAt: null,
          admin: spec.admin ?? false,
          team,
          policy: spec.policy ?? {},
          teamPolicy: null,
          rotatedAt: null,
          previousValidUntil: null,
        };
        if (this.#keys.insert(record, generated.hash)) {
          return { record: this.#keys.find(record.id)?.record ?? record, key: generated.key };
        }
      }
      throw new Error(`could not find a free key id after ${ID_ATTEMPTS} attempts`);
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
      this.#keys.update(id, {
        name: patch.name ?? current.name,
        admin: patch.admin ?? current.admin,
        team: patch.team === undefined ? current.team : patch.team,
        policy: patch.policy ?? current.policy,
      });
      return this.getKey(id);
    }, (result) => result !== null);
  }

  /** Revokes a key; false when no such key. */
  revokeKey(id: string): boolean {
    this.#touched.delete(id);
    return this.#change(() => this.#keys.revoke(id, this.#now()), (revoked) => revoked);
  }

  /** A new secret for key `id`; the old one is accepted for `graceMs` more. Null when no such key
   * or it is revoked. */
  rotateKey(id: string, graceMs: number): IssuedKey | null {
    if (!Number.isFinite(graceMs) || graceMs < 0) {
      throw new RangeError(`the rotation grace must be 0 or more milliseconds, got ${graceMs}`);
    }
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
    const remembered = this.#verified.get(id, presented);
    let record: KeyRecord;
    let matched: "current" | "previous";
    if (remembered !== null) {
      ({ record, matched } = remembered);
    } else {
      const row = this.#keys.find(id);
      const match = matchStoredHashes(presented, row?.keyHash ?? null, row?.previousHash ?? null);
      if (row === null || match === null) return UNKNOWN;
      record = row.record;
      matched = match;
    }
    const verdict = keyVerdict(record, matched, now);
    if (!("record" in verdict)) {
      if (remembered !== null) this.#verified.forget(id);
      return verdict;
    }
    if (remembered === null) this.#verified.set(id, presented, record, matched);
    const last = Math.max(this.#touched.get(id) ?? 0, record.lastUsedAt ?? 0);
    if (now - last < LAST_USED_RESOLUTION_MS) return verdict;
    this.#keys.touch(id, now);
    this.#touched.set(id, now);
    const touched = { ...record, lastUsedAt: now };
    this.#verified.update(id, touched);
    return { record: touched };
  }

  /** Every key ever created, revoked ones included. */
  countKeys(): number {
    return this.#keys.count();
  }

  /** Creates a team; throws when the id is malformed or taken. */
  createTeam(id: string, policy: Policy): TeamRecord {
    if (!TEAM_ID_PATTERN.test(id)) {
      throw new Error(
        `team id "${id}" is not valid: use 1 to 63 characters from a-z, 0-9, "_", "." and "-", ` +
          "starting with a letter or digit",
      );
    }
    return this.#change(() => {
      const now = this.#now();
      const record: TeamRecord = { id, policy, createdAt: now, updatedAt: now };
      if (!this.#teams.insert(record)) throw new Error(`team "${id}" already exists`);
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
      if (members > 0) {
        throw new Error(
          `team "${id}" still has ${members} ${members === 1 ? "key" : "keys"}; ` +
            "move or revoke them first",
        );
      }
      return this.#teams.delete(id);
    }, (deleted) => deleted);
  }

  #requireTeam(id: string): void {
    if (this.#teams.find(id) === null) {
      throw new Error(`team "${id}" does not exist; create it first with \`teams create ${id}\``);
    }
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
      if (generation !== null) this.#verified.reset(generation);
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      throw error;
    }
  }
}
