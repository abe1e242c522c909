/**
 * The verdict on a key whose secret matched: live, or refused as revoked, expired or rotated.
 * Shared by every store and by the verified-key memory, so a remembered key is judged by the same
 * rules (and the same clock) as one just read from the database.
 * @module
 */
import type { SecretMatch } from "./api_key.ts";
import type { KeyCheck, KeyRecord } from "./store.ts";

/**
 * Judges `record` at `now`, given which of its secrets was presented. In order: a revoked key is
 * `revoked` (at its revocation); a key past its own or its team's `expiresAt` is `expired` (at the
 * earlier of the two that passed); the secret before the last rotation, once its grace has ended
 * (`now >= previousValidUntil`), is `rotated` (at the rotation). Anything else is live.
 */
export function keyVerdict(
  record: KeyRecord,
  matched: Exclude<SecretMatch, null>,
  now: number,
): KeyCheck {
  if (record.revokedAt !== null) return { reason: "revoked", at: record.revokedAt };
  let expiredAt = Number.POSITIVE_INFINITY;
  const own = record.policy.expiresAt;
  if (own !== undefined && own <= now) expiredAt = own;
  const team = record.teamPolicy?.expiresAt;
  if (team !== undefined && team <= now && team < expiredAt) expiredAt = team;
  if (expiredAt !== Number.POSITIVE_INFINITY) return { reason: "expired", at: expiredAt };
  if (matched === "previous" && !(now < (record.previousValidUntil ?? 0))) {
    return { reason: "rotated", at: record.rotatedAt ?? 0 };
  }
  return { record };
}
