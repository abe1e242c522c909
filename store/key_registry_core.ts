/**
 * What the SQLite and Postgres key registries share, so each stays a thin shell over its
 * database (synchronous or not): a new key's record, a key update's merged fields, the match of
 * a presented key against a stored row, and {@link KeyCheckMemory}, the verified keys and
 * `last_used_at` writes a check consults.
 * @module
 */
import { matchStoredHashes } from "./api_key.ts";
import { keyVerdict } from "./key_verdict.ts";
import { LAST_USED_RESOLUTION_MS } from "./key_rules.ts";
import type { KeyFields, KeyRow } from "./record_rows.ts";
import type { KeyCheck, KeyPatch, KeyRecord, NewKey } from "./store.ts";
import type { VerifiedKey, VerifiedKeys } from "./verified_keys.ts";

/** A key with its secret, shown once. */
export interface IssuedKey {
  record: KeyRecord;
  key: string;
}

/** The answer to a key that is malformed or matches no stored secret. */
export const UNKNOWN: KeyCheck = { reason: "unknown" };

/** What `createKey` was given, as a {@link NewKey} (a bare string is a name). */
export function keySpec(key: string | NewKey): NewKey {
  return typeof key === "string" ? { name: key } : key;
}

/** The record of a key created at `createdAt` from `spec`, under a generated id and hint. */
export function newKeyRecord(
  spec: NewKey,
  generated: { id: string; hint: string },
  createdAt: number,
): KeyRecord {
  return {
    id: generated.id,
    name: spec.name,
    hint: generated.hint,
    createdAt,
    revokedAt: null,
    lastUsedAt: null,
    admin: spec.admin ?? false,
    team: spec.team ?? null,
    policy: spec.policy ?? {},
    teamPolicy: null,
    rotatedAt: null,
    previousValidUntil: null,
  };
}

/** The fields an update writes: `patch` over the `current` record (`team: null` clears it). */
export function patchedFields(current: KeyRecord, patch: KeyPatch): KeyFields {
  return {
    name: patch.name ?? current.name,
    admin: patch.admin ?? current.admin,
    team: patch.team === undefined ? current.team : patch.team,
    policy: patch.policy ?? current.policy,
  };
}

/** The stored key `presented` is, and which of its secrets it matched (constant-time); null
 * when there is no row or neither hash matches. */
export function matchKeyRow(presented: string, row: KeyRow | null): VerifiedKey | null {
  const matched = matchStoredHashes(presented, row?.keyHash ?? null, row?.previousHash ?? null);
  return row === null || matched === null ? null : { record: row.record, matched };
}

/** A registry's memory between checks: the keys that verified (`VerifiedKeys`) and when this
 * process last wrote each key's `last_used_at`. */
export class KeyCheckMemory {
  readonly #verified: VerifiedKeys;
  /** Last `last_used_at` written per key id by this process. */
  readonly #touched = new Map<string, number>();

  constructor(verified: VerifiedKeys) {
    this.#verified = verified;
  }

  /** The remembered key `id` when `presented` is the key that verified under it. */
  recall(id: string, presented: string): VerifiedKey | null {
    return this.#verified.get(id, presented);
  }

  /** Remembers that `presented` verified as `found`. */
  remember(id: string, presented: string, found: VerifiedKey): void {
    this.#verified.set(id, presented, found.record, found.matched);
  }

  /** The verdict on `found` at `now` (`keyVerdict`); a refused key that was `remembered` is
   * forgotten. */
  judge(id: string, found: VerifiedKey, remembered: boolean, now: number): KeyCheck {
    const verdict = keyVerdict(found.record, found.matched, now);
    if (!("record" in verdict) && remembered) this.#verified.forget(id);
    return verdict;
  }

  /** True when key `id`'s `last_used_at` is due a write at `now`: neither this process nor the
   * record saw a use in the last {@link LAST_USED_RESOLUTION_MS}. */
  touchDue(id: string, record: KeyRecord, now: number): boolean {
    const last = Math.max(this.#touched.get(id) ?? 0, record.lastUsedAt ?? 0);
    return !(now - last < LAST_USED_RESOLUTION_MS);
  }

  /** Notes that this process writes `last_used_at` = `now` for key `id`. */
  touching(id: string, now: number): void {
    this.#touched.set(id, now);
  }

  /** The answer once `last_used_at` was written: the record used at `now`, remembered so. */
  used(id: string, record: KeyRecord, now: number): KeyCheck {
    const touched = { ...record, lastUsedAt: now };
    this.#verified.update(id, touched);
    return { record: touched };
  }

  /** Forgets this process's last `last_used_at` write of key `id` (it is being revoked). */
  forgetTouch(id: string): void {
    this.#touched.delete(id);
  }

  /** Forgets every verified key: the key generation is now `generation`. */
  reset(generation: number): void {
    this.#verified.reset(generation);
  }
}
