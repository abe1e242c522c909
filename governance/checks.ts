/**
 * The admission checks, in the order a refusal is reported: the `models` lists, then budget,
 * max_parallel, rpm, tpm — each for the key, then its team. A spent budget is named before a
 * rate limit, so a client is not told to retry in seconds when it must wait for the period to
 * end. Nothing is changed by a check.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { GatewayError } from "../core/errors.ts";
import type { BudgetTracker } from "./budget.ts";
import type { Expected } from "./estimate.ts";
import { modelAllowed, type Policy } from "./policy.ts";
import {
  budgetExceeded,
  type BudgetFigures,
  modelNotAllowed,
  parallelExceeded,
  rpmExceeded,
  tpmExceeded,
} from "./refusals.ts";
import type { Scope, ScopeKind } from "./scope.ts";

/** A scope with the policy it is held to for this request. */
export interface Bound {
  scope: Scope;
  policy: Policy;
}

/** What a request asks of its scopes. */
export interface Ask {
  now: number;
  expected: Expected;
  /** Whether the request enters the `tpm` window (not image generation). */
  countsTokens: boolean;
  /** The rate-limit headers a refusal carries (built only when refusing). */
  headers: () => Record<string, string>;
}

/** The model check: throws 403 `model_not_allowed` when the key's or its team's `models` list
 * names neither the catalog id, one of its aliases, the requested id, nor the body's `model`. */
export function checkModels(
  keyPolicy: Policy,
  team: { id: string; policy: Policy } | null,
  model: ResolvedModel,
  body: Record<string, unknown>,
): void {
  check("key", "", keyPolicy.models, model, body);
  if (team !== null) check("team", team.id, team.policy.models, model, body);
}

function check(
  kind: ScopeKind,
  id: string,
  models: readonly string[] | undefined,
  model: ResolvedModel,
  body: Record<string, unknown>,
): void {
  if (models === undefined) return;
  if (modelAllowed(models, model.id) || modelAllowed(models, model.requested)) return;
  if (typeof body.model === "string" && modelAllowed(models, body.model)) return;
  // Aliases resolve first: a list naming the model by an alias allows it by any of its names
  // (as GET /v1/models lists it).
  if (model.entry?.aliases.some((alias) => modelAllowed(models, alias))) return;
  throw modelNotAllowed({ kind, id }, model.requested, model.id, models);
}

/** Where a budget of `policy` stands, as `tracker` (loaded) has it. */
export function budgetFigures(policy: Policy, tracker: BudgetTracker): BudgetFigures {
  return {
    budgetUsd: policy.budgetUsd ?? 0,
    period: policy.budgetPeriod ?? "total",
    settledUsd: tracker.settled,
    heldUsd: tracker.held,
    holds: tracker.holds,
    resetsAt: tracker.end,
  };
}

function budget(b: Bound | null, ask: Ask): GatewayError | null {
  const tracker = b?.scope.budget;
  if (b === null || b.policy.budgetUsd === undefined || !tracker) return null;
  const reservation = ask.expected.reservationUsd;
  if (tracker.fits(reservation, b.policy.budgetUsd)) return null;
  const figures = budgetFigures(b.policy, tracker);
  const whole = ask.expected.whole ? ask.expected.outputTokens : null;
  return budgetExceeded(b.scope, figures, reservation, ask.now, ask.headers(), whole);
}

function parallel(b: Bound | null, ask: Ask): GatewayError | null {
  const max = b?.policy.maxParallel;
  if (b === null || max === undefined || b.scope.inFlight < max) return null;
  return parallelExceeded(b.scope, max, ask.headers());
}

function rpm(b: Bound | null, ask: Ask): GatewayError | null {
  const window = b?.scope.requests;
  if (b === null || b.policy.rpm === undefined || !window) return null;
  const wait = window.waitMs(ask.now);
  return wait <= 0 ? null : rpmExceeded(b.scope, b.policy.rpm, wait, ask.headers());
}

function tpm(b: Bound | null, ask: Ask): GatewayError | null {
  const window = b?.scope.tokens;
  if (b === null || b.policy.tpm === undefined || !window || !ask.countsTokens) return null;
  const needed = ask.expected.inputTokens;
  const wait = window.waitMs(ask.now, needed, b.policy.tpm);
  if (wait <= 0) return null;
  return tpmExceeded(b.scope, b.policy.tpm, window.used(ask.now), needed, wait, ask.headers());
}

/** The first limit of the key's or team's that refuses the request, or null to admit it. */
export function refusal(key: Bound | null, team: Bound | null, ask: Ask): GatewayError | null {
  return budget(key, ask) ?? budget(team, ask) ??
    parallel(key, ask) ?? parallel(team, ask) ??
    rpm(key, ask) ?? rpm(team, ask) ??
    tpm(key, ask) ?? tpm(team, ask);
}
