/**
 * From the backend's plain figures to what a client sees, exactly as the in-process governor
 * builds it: rate-limit headers (the tighter of key and team, `rate_headers.ts`), the refusal of
 * the check that refused (`refusals.ts`), and the rate snapshot of `GET /v1/usage`.
 * @module
 */
import type { GatewayError } from "../../core/errors.ts";
import type { Expected } from "../estimate.ts";
import type { RateSnapshot } from "../governor.ts";
import { periodEnd, type Policy } from "../policy.ts";
import { type LimitView, rateHeaders, tighter } from "../rate_headers.ts";
import { budgetExceeded, parallelExceeded, rpmExceeded, tpmExceeded } from "../refusals.ts";
import type { Refused, ScopeFigures, ScopeId } from "./backend.ts";

/** A scope with limits, with the policy it is held to. */
export interface Part extends ScopeId {
  policy: Policy;
}

/** The `rpm` limit of `part` as `figures` show it, or null without one. */
export function requestView(part: Part, figures: ScopeFigures | undefined): LimitView | null {
  const rpm = part.policy.rpm;
  const requests = figures?.requests;
  if (rpm === undefined || !requests) return null;
  return {
    scope: part.kind,
    limit: rpm,
    remaining: Math.max(0, rpm - requests.count),
    resetAt: requests.resetAt,
  };
}

/** The `tpm` limit of `part` as `figures` show it, or null without one. */
export function tokenView(part: Part, figures: ScopeFigures | undefined): LimitView | null {
  const tpm = part.policy.tpm;
  const tokens = figures?.tokens;
  if (tpm === undefined || !tokens) return null;
  return {
    scope: part.kind,
    limit: tpm,
    remaining: Math.max(0, tpm - tokens.used),
    resetAt: tokens.resetAt,
  };
}

/** The rate-limit headers for `route` at `now` (undefined when neither limit applies). */
export function admissionHeaders(
  route: string,
  parts: Part[],
  figures: ScopeFigures[],
  now: number,
): Record<string, string> | undefined {
  let requests: LimitView | null = null;
  let tokens: LimitView | null = null;
  for (let i = 0; i < parts.length; i++) {
    requests = tighter(requests, requestView(parts[i]!, figures[i]));
    tokens = tighter(tokens, tokenView(parts[i]!, figures[i]));
  }
  return rateHeaders(route, now, requests, tokens);
}

/** The error of the check that refused, with the headers of the figures before taking. */
export function refusalError(
  route: string,
  parts: Part[],
  figures: ScopeFigures[],
  refused: Refused,
  expected: Expected,
  now: number,
): GatewayError {
  const part = parts[refused.scope]!;
  const f = figures[refused.scope];
  const headers = admissionHeaders(route, parts, figures, now) ?? {};
  const { policy } = part;
  const whose = { kind: part.kind, id: part.id };
  switch (refused.check) {
    case "budget": {
      const period = policy.budgetPeriod ?? "total";
      const budget = f?.budget ?? { settled: 0, held: 0, holds: 0 };
      const figures = {
        budgetUsd: policy.budgetUsd ?? 0,
        period,
        settledUsd: budget.settled,
        heldUsd: budget.held,
        holds: budget.holds,
        resetsAt: periodEnd(period, now),
      };
      const whole = expected.whole ? expected.outputTokens : null;
      return budgetExceeded(whose, figures, expected.reservationUsd, now, headers, whole);
    }
    case "parallel":
      return parallelExceeded(whose, policy.maxParallel ?? 0, headers);
    case "rpm":
      return rpmExceeded(whose, policy.rpm ?? 0, refused.waitMs, headers);
    case "tpm": {
      const used = f?.tokens?.used ?? 0;
      return tpmExceeded(
        whose,
        policy.tpm ?? 0,
        used,
        expected.inputTokens,
        refused.waitMs,
        headers,
      );
    }
  }
}

/** The key's rate limits as `figures` show them: the tighter of key and team for each. */
export function rateSnapshot(parts: Part[], figures: ScopeFigures[]): RateSnapshot {
  let requests: LimitView | null = null;
  let tokens: LimitView | null = null;
  let parallel: RateSnapshot["parallel"] = null;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    requests = tighter(requests, requestView(part, figures[i]));
    tokens = tighter(tokens, tokenView(part, figures[i]));
    const limit = part.policy.maxParallel;
    const inFlight = figures[i]?.inFlight ?? 0;
    if (limit === undefined) continue;
    if (parallel === null || limit - inFlight < parallel.limit - parallel.inFlight) {
      parallel = { scope: part.kind, limit, inFlight };
    }
  }
  return { requests, tokens, parallel };
}
