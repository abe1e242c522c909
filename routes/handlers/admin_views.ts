/**
 * Keys and teams as the admin API shows them (and the CLI lists them): wire form, RFC 3339
 * times, the policy as `policyToWire` writes it, and where a budget stands in its period. Never
 * a secret: only a creation or rotation adds `key`, in its own handler.
 * @module
 */
import {
  type BudgetStatus,
  budgetStatus,
  periodStart,
  type Policy,
  policyToWire,
} from "../../governance/policy.ts";
import type { KeyRecord, SpendQuery, Store, TeamRecord } from "../../store/store.ts";
import type { KeyView, PolicyView, TeamView } from "../admin_schemas.ts";

const iso = (time: number) => new Date(time).toISOString();
const isoOrNull = (time: number | null) => time === null ? null : iso(time);
const dollars = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** Where `policy`'s budget stands now for the key or team in `scope`, from the ledger (requests
 * still in flight in a running gateway are not in it); null when the policy has no budget. */
export async function budgetOf(
  store: Store,
  policy: Policy,
  scope: Omit<SpendQuery, "start">,
  now: number,
): Promise<BudgetStatus | null> {
  if (policy.budgetUsd === undefined) return null;
  const start = periodStart(policy.budgetPeriod ?? "total", now);
  return budgetStatus(policy, await store.spend({ ...scope, start }), now);
}

/** A budget's wire form; `inFlightUsd` is what requests in flight hold (in `spentUsd`). */
export function budgetView(status: BudgetStatus | null, inFlightUsd = 0): KeyView["budget"] {
  if (status === null) return null;
  return {
    budget_usd: status.budgetUsd,
    period: status.period,
    period_start: status.period === "total" ? null : iso(status.periodStart),
    resets_at: isoOrNull(status.resetsAt),
    spent_usd: dollars(status.spentUsd),
    in_flight_usd: dollars(inFlightUsd),
    remaining_usd: dollars(status.remainingUsd),
  };
}

/** A key's wire form. */
export function keyView(record: KeyRecord, budget: BudgetStatus | null): KeyView {
  return {
    object: "key",
    id: record.id,
    name: record.name,
    hint: record.hint,
    admin: record.admin,
    team: record.team,
    // policyToWire writes exactly the Policy object's fields.
    policy: policyToWire(record.policy) as PolicyView,
    budget: budgetView(budget),
    expires_at: isoOrNull(record.policy.expiresAt ?? null),
    created_at: iso(record.createdAt),
    last_used_at: isoOrNull(record.lastUsedAt),
    revoked_at: isoOrNull(record.revokedAt),
    rotated_at: isoOrNull(record.rotatedAt),
    previous_valid_until: isoOrNull(record.previousValidUntil),
  };
}

/** A key's wire form with its budget read from the store. */
export async function keyViewOf(store: Store, record: KeyRecord, now: number): Promise<KeyView> {
  return keyView(record, await budgetOf(store, record.policy, { keyId: record.id }, now));
}

/** A team's wire form; `keys` counts its live keys. */
export function teamView(team: TeamRecord, keys: number, budget: BudgetStatus | null): TeamView {
  return {
    object: "team",
    id: team.id,
    policy: policyToWire(team.policy) as PolicyView,
    budget: budgetView(budget),
    keys,
    created_at: iso(team.createdAt),
    updated_at: iso(team.updatedAt),
  };
}

/** A team's wire form with its budget read from the store. */
export async function teamViewOf(
  store: Store,
  team: TeamRecord,
  keys: number,
  now: number,
): Promise<TeamView> {
  return teamView(team, keys, await budgetOf(store, team.policy, { team: team.id }, now));
}
