/**
 * The live state of one key or one team under its policy: the `rpm` and `tpm` windows, the
 * requests in flight, the budget. A team's state is shared by all its keys. The windows and the
 * budget are made when the policy first needs them; an `rpm` edit resizes the window.
 * @module
 */
import { BudgetTracker } from "./budget.ts";
import type { Policy } from "./policy.ts";
import type { LimitView } from "./rate_headers.ts";
import { RequestWindow } from "./sliding_window.ts";
import { TokenWindow } from "./token_window.ts";

/** Whose limits: a key's own or its team's. */
export type ScopeKind = "key" | "team";

/** Whether a policy sets any limit the governor enforces at admission (`models` and expiry are
 * checked without state). */
export function hasLimits(policy: Policy | null): policy is Policy {
  return policy !== null &&
    (policy.rpm !== undefined || policy.tpm !== undefined ||
      policy.maxParallel !== undefined || policy.budgetUsd !== undefined);
}

/** One key's or team's limit state. */
export class Scope {
  readonly kind: ScopeKind;
  /** The key id or team id. */
  readonly id: string;
  requests: RequestWindow | null = null;
  tokens: TokenWindow | null = null;
  budget: BudgetTracker | null = null;
  /** Admitted requests not yet released, streams included. */
  inFlight = 0;
  /** Unix ms of the last admission or release. */
  lastUsed = 0;

  /** The state of key or team `id`. */
  constructor(kind: ScopeKind, id: string) {
    this.kind = kind;
    this.id = id;
  }

  /** Brings the state in line with `policy` (windows made or resized; a budget that was removed
   * is forgotten, so one added later is loaded afresh). */
  align(policy: Policy): void {
    if (policy.rpm !== undefined) {
      if (this.requests === null) this.requests = new RequestWindow(policy.rpm);
      else if (this.requests.limit !== policy.rpm) this.requests.resize(policy.rpm);
    }
    if (policy.tpm !== undefined) this.tokens ??= new TokenWindow();
    if (policy.budgetUsd === undefined) this.budget = null;
    else this.budget ??= new BudgetTracker();
  }

  /** The `rpm` limit at `now`, or null without one. */
  requestView(policy: Policy, now: number): LimitView | null {
    if (policy.rpm === undefined || this.requests === null) return null;
    return {
      scope: this.kind,
      limit: policy.rpm,
      remaining: Math.max(0, policy.rpm - this.requests.count(now)),
      resetAt: this.requests.resetAt(now),
    };
  }

  /** The `tpm` limit at `now`, or null without one. */
  tokenView(policy: Policy, now: number): LimitView | null {
    if (policy.tpm === undefined || this.tokens === null) return null;
    return {
      scope: this.kind,
      limit: policy.tpm,
      remaining: Math.max(0, policy.tpm - this.tokens.used(now)),
      resetAt: this.tokens.resetAt(now),
    };
  }

  /** Whether the state holds nothing at `now` and can be dropped. */
  idle(now: number): boolean {
    return this.inFlight === 0 && (this.budget === null || this.budget.holds === 0) &&
      (this.requests === null || this.requests.count(now) === 0) &&
      (this.tokens === null || this.tokens.empty(now));
  }

  /** Who this is in a message: `this key` or `team "x"`. */
  get label(): string {
    return this.kind === "key" ? "this key" : `team "${this.id}"`;
  }
}
