/**
 * Records for tests: a {@link KeyRecord} from the fields a test cares about, every other field as
 * a freshly created key has it (not revoked, never used or rotated, no team, an empty policy).
 * @module
 */
import type { KeyRecord } from "./store.ts";

/** A key record with `fields` over a fresh key's defaults. */
export function testKeyRecord(
  fields: Pick<KeyRecord, "id" | "name" | "hint" | "createdAt"> & Partial<KeyRecord>,
): KeyRecord {
  return {
    revokedAt: null,
    lastUsedAt: null,
    admin: false,
    team: null,
    policy: {},
    teamPolicy: null,
    rotatedAt: null,
    previousValidUntil: null,
    ...fields,
  };
}
