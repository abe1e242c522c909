/**
 * The policy part of `GET /v1/usage`: the calling key's policy and its team's, where its
 * budgets stand in their current period, and its rate limits now.
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { GovernorStatus, RateSnapshot } from "../../governance/governor.ts";
import { type BudgetStatus, policyToWire } from "../../governance/policy.ts";
import type { KeyRecord } from "../../store/store.ts";

const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();
const usd = (value: number) => Math.round(value * 1e6) / 1e6;

const Budget = z.object({
  budget_usd: z.number(),
  period: z.enum(["day", "week", "month", "total"]),
  period_start: z.string().nullable().openapi({ description: "RFC 3339; null for total." }),
  resets_at: z.string().nullable().openapi({ description: "RFC 3339; null: never (total)." }),
  spent_usd: z.number().openapi({
    description: "Settled spend this period plus what requests in flight hold.",
  }),
  in_flight_usd: z.number().openapi({ description: "Held by requests in flight." }),
  remaining_usd: z.number(),
}).nullable();

const Rate = z.object({
  scope: z.enum(["key", "team"]),
  limit: z.number().int(),
  remaining: z.number().int(),
  reset_at: z.string(),
}).nullable();

/** The policy fields `GET /v1/usage` adds to its report. */
export const UsageLimitsSchema = {
  policy: z.looseObject({}).openapi({ description: "The key's own policy (snake_case fields)." }),
  team: z.string().nullable(),
  team_policy: z.looseObject({}).nullable(),
  budget: Budget.openapi({ description: "The key's own budget in its current period." }),
  team_budget: Budget.openapi({ description: "The team's budget, over all its keys." }),
  rate_limits: z.object({
    requests: Rate,
    tokens: Rate,
    parallel: z.object({
      scope: z.enum(["key", "team"]),
      limit: z.number().int(),
      in_flight: z.number().int(),
    }).nullable(),
  }),
};

function budget(status: BudgetStatus | null, inFlight: number) {
  if (status === null) return null;
  return {
    budget_usd: status.budgetUsd,
    period: status.period,
    period_start: status.period === "total" ? null : iso(status.periodStart),
    resets_at: iso(status.resetsAt),
    spent_usd: usd(status.spentUsd),
    in_flight_usd: usd(inFlight),
    remaining_usd: usd(status.remainingUsd),
  };
}

function rates(snapshot: RateSnapshot) {
  const view = (v: RateSnapshot["requests"]) =>
    v === null
      ? null
      : { scope: v.scope, limit: v.limit, remaining: v.remaining, reset_at: iso(v.resetAt)! };
  const p = snapshot.parallel;
  return {
    requests: view(snapshot.requests),
    tokens: view(snapshot.tokens),
    parallel: p === null ? null : { scope: p.scope, limit: p.limit, in_flight: p.inFlight },
  };
}

/** The policy fields of `key`'s usage report; `status` is null when the gateway keeps no limits
 * (then budgets and rates read null). */
export function usageLimits(key: KeyRecord, status: GovernorStatus | null) {
  return {
    policy: policyToWire(key.policy),
    team: key.team,
    team_policy: key.teamPolicy === null ? null : policyToWire(key.teamPolicy),
    budget: budget(status?.key ?? null, status?.inFlightUsd ?? 0),
    team_budget: budget(status?.team ?? null, status?.teamInFlightUsd ?? 0),
    rate_limits: status === null
      ? { requests: null, tokens: null, parallel: null }
      : rates(status.rates),
  };
}
