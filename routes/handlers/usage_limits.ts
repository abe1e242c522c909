/**
 * The policy part of `GET /v1/usage`: the calling key's policy and its team's, where its
 * budgets stand in their current period, and its rate limits now.
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { GovernorStatus, RateSnapshot } from "../../governance/governor.ts";
import { policyToWire } from "../../governance/policy.ts";
import type { KeyRecord } from "../../store/store.ts";
import { BudgetObject, PolicyObject, type PolicyView } from "../admin_schemas.ts";
import { UsageLedgerReportSchema } from "../schemas.ts";
import { budgetView } from "./admin_views.ts";

const iso = (ms: number) => new Date(ms).toISOString();

const Rate = z.object({
  scope: z.enum(["key", "team"]),
  limit: z.number().int(),
  remaining: z.number().int(),
  reset_at: z.string(),
}).nullable();

/** The `GET /v1/usage` response: the ledger report plus the key's policy and limits. */
export const UsageReportSchema = UsageLedgerReportSchema.extend({
  policy: PolicyObject.openapi({ description: "The key's own policy (absent fields: no limit)." }),
  team: z.string().nullable().openapi({ description: "The key's team, or null." }),
  team_policy: PolicyObject.nullable().openapi({
    description: "The team's policy, which applies on top of the key's own; null without a team.",
  }),
  budget: BudgetObject.nullable().openapi({
    description: "The key's own budget in its current period; null without one.",
  }),
  team_budget: BudgetObject.nullable().openapi({
    description: "The team's budget, over all its keys; null without one.",
  }),
  rate_limits: z.object({
    requests: Rate,
    tokens: Rate,
    parallel: z.object({
      scope: z.enum(["key", "team"]),
      limit: z.number().int(),
      in_flight: z.number().int(),
    }).nullable(),
  }).openapi({
    description: "Each limit as the tighter of key and team now, before this request; null " +
      "when neither sets it.",
  }),
}).openapi("UsageReport");

function rates(snapshot: RateSnapshot) {
  const view = (v: RateSnapshot["requests"]) =>
    v === null
      ? null
      : { scope: v.scope, limit: v.limit, remaining: v.remaining, reset_at: iso(v.resetAt) };
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
    // policyToWire writes exactly the Policy object's fields.
    policy: policyToWire(key.policy) as PolicyView,
    team: key.team,
    team_policy: key.teamPolicy === null ? null : policyToWire(key.teamPolicy) as PolicyView,
    budget: budgetView(status?.key ?? null, status?.inFlightUsd),
    team_budget: budgetView(status?.team ?? null, status?.teamInFlightUsd),
    rate_limits: status === null
      ? { requests: null, tokens: null, parallel: null }
      : rates(status.rates),
  };
}
