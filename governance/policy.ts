/**
 * Key and team policies: what a key may call, how fast, for how much, until when. A key's own
 * policy and its team's policy both apply (the tighter of each pair wins at admission, and each
 * counts its own window: a team's `rpm` is shared by all its keys).
 *
 * The wire form (admin API, CLI, `GET /v1/usage`) is snake_case; the stored and internal form is
 * {@link Policy}. Every field is optional: an absent field sets no limit.
 * @module
 */
import { parseUtcTime } from "../core/utc_time.ts";
import { z } from "zod";

/** Budget periods: UTC calendar day, ISO week (Monday 00:00 UTC), calendar month, or forever. */
export const BUDGET_PERIODS = ["day", "week", "month", "total"] as const;
/** One of {@link BUDGET_PERIODS}. */
export type BudgetPeriod = typeof BUDGET_PERIODS[number];

/** A policy, internal form. */
export interface Policy {
  /** Model ids or glob patterns (`*` any run of characters, `?` one) the key may call. */
  models?: string[];
  /** Requests admitted in any 60-second interval. */
  rpm?: number;
  /** Input + output tokens in any 60-second interval. */
  tpm?: number;
  /** Requests in flight at once, streams included. */
  maxParallel?: number;
  /** US dollars per period; needs {@link budgetPeriod} (default `total`). */
  budgetUsd?: number;
  budgetPeriod?: BudgetPeriod;
  /** Unix milliseconds after which the key (or every key of the team) is refused. */
  expiresAt?: number;
}

/** The policy fields, in wire names; `--clear FIELD` and PATCH `null` name them. */
export const POLICY_FIELDS = [
  "models",
  "rpm",
  "tpm",
  "max_parallel",
  "budget_usd",
  "budget_period",
  "expires_at",
] as const;
/** One of {@link POLICY_FIELDS}. */
export type PolicyField = typeof POLICY_FIELDS[number];

const positiveInt = z.number().int().positive().max(1_000_000_000);

/** The wire form of a policy: every field optional; `null` clears it in a PATCH. Strict: a
 * misspelt limit must not be silently ignored. */
export const PolicyWireSchema = z.strictObject({
  models: z.array(z.string().min(1).max(200)).max(1000).nullable().optional(),
  rpm: positiveInt.nullable().optional(),
  tpm: positiveInt.nullable().optional(),
  max_parallel: positiveInt.nullable().optional(),
  budget_usd: z.number().nonnegative().max(1e9).nullable().optional(),
  budget_period: z.enum(BUDGET_PERIODS).nullable().optional(),
  expires_at: z.union([z.string(), z.number()]).nullable().optional(),
});
/** A policy as the admin API and CLI write it. */
export type PolicyWire = z.infer<typeof PolicyWireSchema>;

/** The wire form of a stored policy (absent fields omitted; times as RFC 3339). */
export function policyToWire(policy: Policy): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (policy.models !== undefined) out.models = policy.models;
  if (policy.rpm !== undefined) out.rpm = policy.rpm;
  if (policy.tpm !== undefined) out.tpm = policy.tpm;
  if (policy.maxParallel !== undefined) out.max_parallel = policy.maxParallel;
  if (policy.budgetUsd !== undefined) {
    out.budget_usd = policy.budgetUsd;
    out.budget_period = policy.budgetPeriod ?? "total";
  }
  if (policy.expiresAt !== undefined) out.expires_at = new Date(policy.expiresAt).toISOString();
  return out;
}

/**
 * Reads an expiry: an RFC 3339 date or date-time (UTC when it names no offset), unix seconds, or
 * a duration from `now`
 * (`30d`, `12h`, `90m`). Throws a message naming the accepted forms.
 */
export function parseExpiry(value: string | number, now: number): number {
  if (typeof value === "number") return Math.round(value * 1000);
  const duration = /^(\d+)([dhm])$/.exec(value.trim());
  if (duration) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[duration[2] as "d" | "h" | "m"];
    return now + Number(duration[1]) * unit;
  }
  const ms = parseUtcTime(value);
  if (ms !== null) return ms;
  throw new Error(
    `expires_at "${value}" is not a time: use a duration (30d, 12h, 90m), a date (2027-01-01), ` +
      "an RFC 3339 date-time, or unix seconds",
  );
}

/**
 * Applies a wire patch to `base`: a field set to a value replaces it, `null` removes it, an
 * absent field keeps it. Throws a message for an expiry it cannot read.
 */
export function applyPolicyPatch(base: Policy, patch: PolicyWire, now: number): Policy {
  const next: Policy = { ...base };
  const set = <K extends keyof Policy>(key: K, value: Policy[K] | null | undefined) => {
    if (value === undefined) return;
    if (value === null) delete next[key];
    else next[key] = value;
  };
  set("models", patch.models);
  set("rpm", patch.rpm);
  set("tpm", patch.tpm);
  set("maxParallel", patch.max_parallel);
  set("budgetUsd", patch.budget_usd);
  set("budgetPeriod", patch.budget_period);
  if (patch.expires_at !== undefined) {
    set("expiresAt", patch.expires_at === null ? null : parseExpiry(patch.expires_at, now));
  }
  if (next.budgetUsd === undefined) delete next.budgetPeriod;
  else next.budgetPeriod ??= "total";
  return next;
}

/** The last period each kind was asked about: `[start, end)`, so the requests of one period
 * skip the calendar arithmetic (every admission and release asks). */
const lastPeriod = new Map<BudgetPeriod, { start: number; end: number }>();

/** Start of the budget period containing `now` (UTC calendar boundaries; 0 for `total`). */
export function periodStart(period: BudgetPeriod, now: number): number {
  if (period === "total") return 0;
  const last = lastPeriod.get(period);
  if (last !== undefined && now >= last.start && now < last.end) return last.start;
  const start = calendarStart(period, now);
  lastPeriod.set(period, { start, end: calendarEnd(period, start) });
  return start;
}

function calendarStart(period: BudgetPeriod, now: number): number {
  const d = new Date(now);
  switch (period) {
    case "day":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case "week": {
      const sinceMonday = (d.getUTCDay() + 6) % 7;
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - sinceMonday);
    }
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case "total":
      return 0;
    default: {
      const never: never = period;
      throw new Error(`unknown budget period ${String(never)}`);
    }
  }
}

/** The end of the calendar period that starts at `start`. */
function calendarEnd(period: BudgetPeriod, start: number): number {
  const d = new Date(start);
  switch (period) {
    case "day":
      return start + 86_400_000;
    case "week":
      return start + 7 * 86_400_000;
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case "total":
      return Infinity;
    default: {
      const never: never = period;
      throw new Error(`unknown budget period ${String(never)}`);
    }
  }
}

/** When the budget period containing `now` ends (null for `total`: it never resets). */
export function periodEnd(period: BudgetPeriod, now: number): number | null {
  if (period === "total") return null;
  return calendarEnd(period, periodStart(period, now));
}

/** Whether a caller under `policies` (a key's own, its team's; null for none) may call the model
 * known by `names` (its id and aliases): every policy that lists models must allow one of them. */
export function mayCall(policies: ReadonlyArray<Policy | null>, names: readonly string[]): boolean {
  return policies.every((policy) =>
    policy === null || names.some((name) => modelAllowed(policy.models, name))
  );
}

const globCache = new Map<string, RegExp>();

/** Whether model `id` matches one of `patterns` (exact ids or `*`/`?` globs). */
export function modelAllowed(patterns: readonly string[] | undefined, id: string): boolean {
  if (patterns === undefined) return true;
  for (const pattern of patterns) {
    if (pattern === id) return true;
    if (!/[*?]/.test(pattern)) continue;
    let regex = globCache.get(pattern);
    if (regex === undefined) {
      const source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")
        .replace(/\?/g, ".");
      regex = new RegExp(`^${source}$`);
      globCache.set(pattern, regex);
    }
    if (regex.test(id)) return true;
  }
  return false;
}

/** Where a budget stands in its current period. */
export interface BudgetStatus {
  budgetUsd: number;
  period: BudgetPeriod;
  /** Unix milliseconds the period began (0 for `total`). */
  periodStart: number;
  /** Unix milliseconds the period ends, null for `total`. */
  resetsAt: number | null;
  spentUsd: number;
  remainingUsd: number;
}

/** The budget status of `policy` given `spentUsd` in the period containing `now`; null when the
 * policy has no budget. */
export function budgetStatus(policy: Policy, spentUsd: number, now: number): BudgetStatus | null {
  if (policy.budgetUsd === undefined) return null;
  const period = policy.budgetPeriod ?? "total";
  return {
    budgetUsd: policy.budgetUsd,
    period,
    periodStart: periodStart(period, now),
    resetsAt: periodEnd(period, now),
    spentUsd,
    remainingUsd: Math.max(0, policy.budgetUsd - spentUsd),
  };
}
