/**
 * The keys and team of the scale-out bench, made through the gateway's admin API with the admin
 * key `main.ts` prints on its first start: a key with no policy, or a key with every policy in a
 * team with every policy (`../policies.ts`), in the wire form of `routes/admin_schemas.ts`.
 * @module
 */
import { policyToWire } from "../../governance/policy.ts";
import { benchPolicies, POLICY_TEAM } from "../policies.ts";

async function post(
  base: string,
  adminKey: string,
  path: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The admin bodies of the policied team and key at `now`; the team is `team` (a fresh name per
 * run: Redis keeps a team's limits by its id, across databases). */
export function policiedBodies(now: number, team: string = POLICY_TEAM): {
  team: Record<string, unknown>;
  key: Record<string, unknown>;
} {
  const policies = benchPolicies(now);
  return {
    team: { id: team, ...policyToWire(policies.team) },
    key: { name: "bench-policied", team, ...policyToWire(policies.key) },
  };
}

/** Creates the bench's key on the gateway at `base`: with no policy, or (`policied`) with every
 * policy in a fresh team `bench-team-<random>` with every policy (created first). Returns the
 * secret. */
export async function createBenchKey(
  base: string,
  adminKey: string,
  policied: boolean,
): Promise<string> {
  let body: Record<string, unknown> = { name: "bench" };
  if (policied) {
    const suffix = crypto.randomUUID().slice(0, 8);
    const bodies = policiedBodies(Date.now(), `${POLICY_TEAM}-${suffix}`);
    await post(base, adminKey, "/admin/v1/teams", bodies.team);
    body = bodies.key;
  }
  const created = await post(base, adminKey, "/admin/v1/keys", body);
  if (typeof created.key !== "string") {
    throw new Error(`POST /admin/v1/keys answered without a key: ${JSON.stringify(created)}`);
  }
  return created.key;
}
