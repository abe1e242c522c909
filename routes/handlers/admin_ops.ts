/**
 * What the admin API and the keys/teams CLI do to the store, once: each operation takes a body
 * in the admin wire form (`routes/admin_schemas.ts`, already validated), checks what the schema
 * cannot (the team exists, the id is free, the key is live) and throws a `GatewayError` whose
 * message says what failed and what to do. The HTTP handlers render those errors; the CLI prints
 * them, naming its own flag for the error's `param`.
 * @module
 */
import { GatewayError, invalidRequest } from "../../core/errors.ts";
import {
  applyPolicyPatch,
  type Policy,
  POLICY_FIELDS,
  type PolicyWire,
} from "../../governance/policy.ts";
import type { KeyPatch, KeyRecord, Store, TeamRecord } from "../../store/store.ts";
import {
  type CreateKeyInput,
  type CreateTeamInput,
  DEFAULT_GRACE_SECONDS,
  type UpdateKeyInput,
  type UpdateTeamInput,
} from "../admin_schemas.ts";

/** The policy fields of an admin body. */
export function policyPart(body: Record<string, unknown>): PolicyWire {
  const out: Record<string, unknown> = {};
  for (const field of POLICY_FIELDS) if (field in body) out[field] = body[field];
  return out as PolicyWire;
}

/** `base` with the wire patch applied (`null` clears a field): the one reading of policy input.
 * A 400 names the field for an expiry that is not a time, or a period without a budget. */
export function applyPolicyInput(base: Policy, patch: PolicyWire, now: number): Policy {
  let next: Policy;
  try {
    next = applyPolicyPatch(base, patch, now);
  } catch (error) {
    throw invalidRequest(`${(error as Error).message}.`, "expires_at");
  }
  const periodSet = patch.budget_period !== undefined && patch.budget_period !== null;
  if (periodSet && next.budgetUsd === undefined) {
    throw invalidRequest(
      "budget_period needs a budget: set budget_usd too (or drop budget_period).",
      "budget_period",
    );
  }
  return next;
}

/** The key `id`, revoked ones included; 404 when there is none. */
export async function findKey(store: Store, id: string): Promise<KeyRecord> {
  const record = await store.getKey(id);
  if (record === null) {
    throw new GatewayError(
      "not_found",
      404,
      `No key with id "${id}": list the keys with GET /admin/v1/keys (or deno task keys list).`,
      { param: "id", code: "key_not_found" },
    );
  }
  return record;
}

/** The team `id`; 404 when there is none. */
export async function findTeam(store: Store, id: string): Promise<TeamRecord> {
  const team = await store.getTeam(id);
  if (team === null) {
    throw new GatewayError(
      "not_found",
      404,
      `No team "${id}": list the teams with GET /admin/v1/teams (or deno task teams list).`,
      { param: "id", code: "team_not_found" },
    );
  }
  return team;
}

/** A 400 unless team `id` exists (a key cannot join a team that does not). */
async function requireTeam(store: Store, id: string | null | undefined): Promise<void> {
  if (id === null || id === undefined || (await store.getTeam(id)) !== null) return;
  throw invalidRequest(
    `Team "${id}" does not exist: create it first (POST /admin/v1/teams or deno task teams ` +
      `create ${id}), or leave team out.`,
    "team",
    "team_not_found",
  );
}

/** Creates a key from a create body; the record and its secret. */
export async function createKey(
  store: Store,
  input: CreateKeyInput,
  now: number,
): Promise<{ record: KeyRecord; key: string }> {
  await requireTeam(store, input.team);
  const policy = applyPolicyInput({}, policyPart(input), now);
  return await store.createKey({
    name: input.name,
    admin: input.admin ?? false,
    team: input.team ?? null,
    policy,
  });
}

/** Applies a PATCH body to key `id`: absent fields stay, `null` clears. */
export async function updateKey(
  store: Store,
  id: string,
  input: UpdateKeyInput,
  now: number,
): Promise<KeyRecord> {
  const current = await findKey(store, id);
  await requireTeam(store, input.team);
  const patch: KeyPatch = { policy: applyPolicyInput(current.policy, policyPart(input), now) };
  if (input.name !== undefined) patch.name = input.name;
  if (input.admin !== undefined) patch.admin = input.admin;
  if (input.team !== undefined) patch.team = input.team;
  return await store.updateKey(id, patch) ?? await findKey(store, id);
}

/** Revokes key `id` (a revoked key stays as it was); its record. */
export async function revokeKey(store: Store, id: string): Promise<KeyRecord> {
  const current = await findKey(store, id);
  if (current.revokedAt !== null) return current;
  await store.revokeKey(id);
  return await findKey(store, id);
}

/** Issues key `id` a new secret; the old one works `graceSeconds` more. 409 for a revoked key. */
export async function rotateKey(
  store: Store,
  id: string,
  graceSeconds = DEFAULT_GRACE_SECONDS,
): Promise<{ record: KeyRecord; key: string }> {
  const current = await findKey(store, id);
  const rotated = current.revokedAt === null
    ? await store.rotateKey(id, graceSeconds * 1000)
    : null;
  if (rotated === null) {
    throw new GatewayError(
      "invalid_request",
      409,
      `Key "${id}" is revoked and cannot be rotated: create a new key instead.`,
      { param: "id", code: "key_revoked" },
    );
  }
  return rotated;
}

/** How many live (not revoked) keys each team has. */
export async function liveKeysByTeam(store: Store): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const key of await store.listKeys()) {
    if (key.team === null || key.revokedAt !== null) continue;
    counts.set(key.team, (counts.get(key.team) ?? 0) + 1);
  }
  return counts;
}

/** Creates a team from a create body; 409 when the id is taken. */
export async function createTeam(
  store: Store,
  input: CreateTeamInput,
  now: number,
): Promise<TeamRecord> {
  const { id } = input;
  if ((await store.getTeam(id)) !== null) {
    throw new GatewayError(
      "invalid_request",
      409,
      `Team "${id}" already exists: change it with PATCH /admin/v1/teams/${id} (or deno task ` +
        `teams update ${id}), or pick another id.`,
      { param: "id", code: "team_exists" },
    );
  }
  return await store.createTeam(id, applyPolicyInput({}, policyPart(input), now));
}

/** Applies a PATCH body to team `id`'s policy. */
export async function updateTeam(
  store: Store,
  id: string,
  input: UpdateTeamInput,
  now: number,
): Promise<TeamRecord> {
  const current = await findTeam(store, id);
  const policy = applyPolicyInput(current.policy, policyPart(input), now);
  return await store.updateTeam(id, policy) ?? await findTeam(store, id);
}

/** Deletes team `id`; 409 while live keys belong to it. */
export async function deleteTeam(store: Store, id: string): Promise<void> {
  await findTeam(store, id);
  const members = (await liveKeysByTeam(store)).get(id) ?? 0;
  if (members > 0) {
    throw new GatewayError(
      "invalid_request",
      409,
      `Team "${id}" still has ${members} key${members === 1 ? "" : "s"}: move them to another ` +
        "team (PATCH /admin/v1/keys/{id} with team) or revoke them, then delete the team.",
      { param: "id", code: "team_not_empty" },
    );
  }
  await store.deleteTeam(id);
}
