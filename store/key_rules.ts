/**
 * The rules every store applies to keys and teams, and the words it refuses with: one place, so
 * SQLite and Postgres answer the same way.
 * @module
 */

/** `last_used_at` is written at most this often per key, so verifying is almost always a read. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** How many fresh ids to try when a generated id is already taken (50 random bits each). */
export const ID_ATTEMPTS = 5;

/** What a team id looks like: lowercase, 1 to 63 characters, safe in URLs and CLI arguments. */
export const TEAM_ID_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,62}$/;

/** Throws when `id` is not a valid team id. */
export function checkTeamId(id: string): void {
  if (!TEAM_ID_PATTERN.test(id)) {
    throw new Error(
      `team id "${id}" is not valid: use 1 to 63 characters from a-z, 0-9, "_", "." and "-", ` +
        "starting with a letter or digit",
    );
  }
}

/** The refusal of a team id that is taken. */
export function teamExists(id: string): Error {
  return new Error(`team "${id}" already exists`);
}

/** The refusal of a key naming a team that does not exist. */
export function teamMissing(id: string): Error {
  return new Error(`team "${id}" does not exist; create it first with \`teams create ${id}\``);
}

/** The refusal to delete a team that keys still belong to. */
export function teamHasMembers(id: string, members: number): Error {
  return new Error(
    `team "${id}" still has ${members} ${members === 1 ? "key" : "keys"}; ` +
      "move or revoke them first",
  );
}

/** The failure when every generated key id was taken. */
export function noFreeKeyId(): Error {
  return new Error(`could not find a free key id after ${ID_ATTEMPTS} attempts`);
}

/** The refusal of a rotation grace that is not a duration. */
export function checkRotationGrace(graceMs: number): void {
  if (!Number.isFinite(graceMs) || graceMs < 0) {
    throw new RangeError(`the rotation grace must be 0 or more milliseconds, got ${graceMs}`);
  }
}
