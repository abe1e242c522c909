/**
 * The policy-cost comparison (issue #15): one gatehouse process serves two keys, `gatehouse`
 * with no policy and `policied` with every policy field set, in a team that has every field
 * set too, so both scopes are counted on each request. The limits are far above what the bench
 * can send, so nothing is refused; what the comparison shows is what checking and counting
 * costs on the hot path.
 *
 * Memory the limits cost while the bench runs (both windows hold 60 s of admissions, not the
 * limit's worth): the `rpm` window keeps one 8-byte timestamp per admitted request, in a
 * Float64Array that doubles from 16 up to the limit ({@link rpmWindowBytes}); the `tpm` window
 * keeps two (time and tokens) per admitted request, in two such arrays without the cap. A budget keeps no per-request state beyond the
 * holds of the requests in flight (at most the concurrency), and its reservations (about $0.009
 * a request here) are released at each request's end, so a large budget never fills up.
 * @module
 */
import type { Policy } from "../governance/policy.ts";
import { CONCURRENCIES, type Measurement, table } from "./report.ts";
import type { Target } from "./scenarios.ts";

/** The team the policied key belongs to. */
export const POLICY_TEAM = "bench-team";

/** The limits of both policies: out of the bench's reach, within what the admin API accepts
 * (`rpm`/`tpm` at most 1e9). 5M rpm is 83k req/s, about 8 times the fastest gatehouse run on a
 * 2-core box (~10k req/s, chat JSON at c=32); 1e9 tpm at ~430 tokens a request (~330 estimated
 * at admission) is 2.3M requests a minute; 1000 in flight against a load of at most 32; $1M a
 * month against ~$0.0006 settled a request (~$600 a million requests). */
export const BENCH_LIMITS = {
  rpm: 5_000_000,
  tpm: 1_000_000_000,
  maxParallel: 1_000,
  budgetUsd: 1_000_000,
} as const;

/** How far ahead both expiries are. */
export const EXPIRY_AHEAD_MS = 365 * 86_400_000;

/** The key's and the team's policies at `now`: every field set, none that can refuse during a
 * run. The key's models glob matches every bench model; the team's list has two globs that do
 * not match before the one that does, as a real allow-list would. */
export function benchPolicies(now: number): { key: Policy; team: Policy } {
  const common = {
    rpm: BENCH_LIMITS.rpm,
    tpm: BENCH_LIMITS.tpm,
    maxParallel: BENCH_LIMITS.maxParallel,
    budgetUsd: BENCH_LIMITS.budgetUsd,
    budgetPeriod: "month",
    expiresAt: now + EXPIRY_AHEAD_MS,
  } as const;
  return {
    key: { models: ["bench-*"], ...common },
    team: { models: ["gpt-*", "claude-*", "bench-*"], ...common },
  };
}

/** Bytes the `rpm` window's timestamps take after `rps` requests a second for a minute: one
 * Float64 per admission still in the window, in a buffer that starts at min(limit, 16) and
 * doubles, capped at the limit. */
export function rpmWindowBytes(rps: number, limit: number = BENCH_LIMITS.rpm): number {
  const held = Math.min(limit, Math.ceil(Math.max(0, rps) * 60));
  let capacity = Math.min(limit, 16);
  while (capacity < held) capacity = Math.min(limit, capacity * 2);
  return capacity * 8;
}

/** The rate-limit headers a response on `path` carries under an `rpm` and `tpm` policy. */
export function rateLimitHeaderNames(path: string): string[] {
  const names: string[] = [];
  for (const kind of ["requests", "tokens"]) {
    for (const part of ["limit", "remaining", "reset"]) {
      names.push(
        path.startsWith("/v1/messages")
          ? `anthropic-ratelimit-${kind}-${part}`
          : `x-ratelimit-${part}-${kind}`,
      );
    }
  }
  return names;
}

/** What is wrong with a response's rate-limit headers: for the `policied` target each must be
 * there (the governor counted the request), with the limits the policies set; for any other
 * gatehouse run none may be (the key is really unpolicied). */
export function rateLimitProblems(headers: Headers, path: string, target: Target): string[] {
  const names = rateLimitHeaderNames(path);
  if (target !== "policied") {
    const present = names.filter((name) => headers.has(name));
    return present.length === 0 ? [] : [`an unpolicied key got ${present.join(", ")}`];
  }
  const problems = names.filter((name) => !headers.has(name)).map((name) => `no ${name}`);
  const expect = (name: string | undefined, value: number) => {
    const got = name === undefined ? null : headers.get(name);
    if (got !== null && got !== String(value)) problems.push(`${name} is ${got}, not ${value}`);
  };
  expect(names[0], BENCH_LIMITS.rpm);
  expect(names[3], BENCH_LIMITS.tpm);
  return problems;
}

/** What "policies: none" and "policies: all" measured in one scenario (one round, or pooled). */
export interface PolicyCost {
  scenario: string;
  /** 1, 2, …; null for all rounds pooled. */
  round: number | null;
  /** p50 at c=1 over the direct run's, ms: no policy, then every policy. */
  addedP50None: number;
  addedP50All: number;
  /** Throughput at the highest concurrency, req/s. */
  rpsNone: number;
  rpsAll: number;
  /** rpsAll / rpsNone. */
  ratio: number;
}

/** The comparison per scenario of `scenarios` that has both runs (and a direct run at c=1) in
 * `all`, which holds the measurements of one `round` (null: pooled). */
export function policyCosts(
  scenarios: string[],
  all: Measurement[],
  round: number | null = null,
): PolicyCost[] {
  const low = CONCURRENCIES[0];
  const high = CONCURRENCIES[CONCURRENCIES.length - 1]!;
  const costs: PolicyCost[] = [];
  for (const scenario of scenarios) {
    const get = (target: Target, concurrency: number) =>
      all.find((m) =>
        m.scenario === scenario && m.target === target && m.concurrency === concurrency
      )?.result;
    const direct = get("direct", low);
    const [noneLow, allLow] = [get("gatehouse", low), get("policied", low)];
    const [noneHigh, allHigh] = [get("gatehouse", high), get("policied", high)];
    if (!direct || !noneLow || !allLow || !noneHigh || !allHigh) continue;
    costs.push({
      scenario,
      round,
      addedP50None: noneLow.p50 - direct.p50,
      addedP50All: allLow.p50 - direct.p50,
      rpsNone: noneHigh.throughput,
      rpsAll: allHigh.throughput,
      ratio: allHigh.throughput / noneHigh.throughput,
    });
  }
  return costs;
}

/** The printed comparison: one row per round and scenario, then the pooled rows. */
export function formatPolicyCosts(costs: PolicyCost[], label: (id: string) => string): string {
  const low = CONCURRENCIES[0];
  const high = CONCURRENCIES[CONCURRENCIES.length - 1]!;
  const f3 = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(3)}`;
  return table(
    [
      "round",
      "scenario",
      `c=${low} added p50 none`,
      "all",
      "all − none ms",
      `c=${high} req/s none`,
      "all",
      "all / none",
    ],
    costs.map((c) => [
      c.round === null ? "pooled" : String(c.round),
      label(c.scenario),
      f3(c.addedP50None),
      f3(c.addedP50All),
      f3(c.addedP50All - c.addedP50None),
      c.rpsNone.toFixed(0),
      c.rpsAll.toFixed(0),
      `${(c.ratio * 100).toFixed(1)}%`,
    ]),
  );
}

/** The parts of a `GET /v1/usage` answer the post-run check reads. */
interface UsageLimits {
  budget?: { spent_usd?: number; in_flight_usd?: number } | null;
  team_budget?: { spent_usd?: number; in_flight_usd?: number } | null;
  rate_limits?: {
    requests?: { limit?: number; remaining?: number } | null;
    tokens?: { limit?: number } | null;
    parallel?: { in_flight?: number } | null;
  };
}

/** Checks a key's `GET /v1/usage` after the run: the policied key's budgets (key and team) have
 * settled spend and nothing left in flight (every reservation was released), its rate limits are
 * the bench's; the unpolicied key has no budget and no rate limit. Returns the problems and a
 * one-line summary. */
export function usageProblems(
  usage: UsageLimits,
  target: Target,
): { problems: string[]; summary: string } {
  const rates = usage.rate_limits ?? {};
  if (target !== "policied") {
    const set = [
      usage.budget ? "budget" : "",
      usage.team_budget ? "team_budget" : "",
      rates.requests ? "rate_limits.requests" : "",
      rates.tokens ? "rate_limits.tokens" : "",
    ].filter((name) => name !== "");
    return {
      problems: set.length === 0 ? [] : [`the unpolicied key has ${set.join(", ")}`],
      summary: "no budget, no rate limit",
    };
  }
  const problems: string[] = [];
  const budget = (name: string, b: UsageLimits["budget"]) => {
    if (!b) return problems.push(`no ${name}`);
    if (!((b.spent_usd ?? 0) > 0)) problems.push(`${name}.spent_usd is ${b.spent_usd}`);
    if (b.in_flight_usd !== 0) problems.push(`${name}.in_flight_usd is ${b.in_flight_usd}`);
  };
  budget("budget", usage.budget);
  budget("team_budget", usage.team_budget);
  if (rates.requests?.limit !== BENCH_LIMITS.rpm) problems.push("rate_limits.requests is off");
  if (rates.tokens?.limit !== BENCH_LIMITS.tpm) problems.push("rate_limits.tokens is off");
  if (rates.parallel?.in_flight !== 0) {
    problems.push(`rate_limits.parallel.in_flight is ${rates.parallel?.in_flight}`);
  }
  const requests = rates.requests;
  const counted = requests?.limit !== undefined && requests.remaining !== undefined
    ? requests.limit - requests.remaining
    : NaN;
  return {
    problems,
    summary: `key spent $${usage.budget?.spent_usd} and team $${usage.team_budget?.spent_usd} ` +
      `this month, $${usage.budget?.in_flight_usd} in flight; ${counted} requests in the rpm ` +
      `window now`,
  };
}
