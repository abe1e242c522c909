/**
 * An admitted request's hold on its key's and team's limits: a place among the requests in
 * flight, an entry in the `tpm` window, a budget reservation. The budget watch meters its spend
 * as it streams; the release, exactly once, settles the real tokens and cost.
 * @module
 */
import type { GatewayError } from "../core/errors.ts";
import type { Admission, Flowing, Spent } from "../gateway/admission.ts";
import { type BudgetHold, type BudgetTracker, USD_EPSILON } from "./budget.ts";
import { type Bound, budgetFigures } from "./checks.ts";
import { budgetReached } from "./refusals.ts";
import type { TokenEntry } from "./token_window.ts";

/** What one request holds of one scope. */
export interface ScopeHold extends Bound {
  /** Its `tpm` entry, when the scope has a token window and the request counts in it. */
  entry: TokenEntry | null;
  /** Its budget hold and the tracker it was taken from, when the scope has a budget (a budget
   * removed and added again mid-request gets a new tracker; the hold stays with its own). */
  budget: { tracker: BudgetTracker; hold: BudgetHold } | null;
}

/** The tokens a release counts in the `tpm` window: input + output as the ledger records them
 * (input includes cached reads and cache writes; reasoning is part of output). */
export function windowTokens(spent: Spent): number {
  return spent.usage.inputTokens + spent.usage.outputTokens;
}

/** The admission the governor hands back for a request under some limit. */
export class HeldAdmission implements Admission {
  readonly headers?: Record<string, string>;
  readonly inputEstimate: number;
  readonly watch?: (flowing: Flowing) => GatewayError | null;
  readonly quiet?: (cost: number) => boolean;
  readonly #key: ScopeHold | null;
  readonly #team: ScopeHold | null;
  readonly #now: () => number;
  #released = false;

  /** Holds of the key and the team (null where the scope has no limits). */
  constructor(
    key: ScopeHold | null,
    team: ScopeHold | null,
    headers: Record<string, string> | undefined,
    inputEstimate: number,
    now: () => number,
  ) {
    this.#key = key;
    this.#team = team;
    this.#now = now;
    this.inputEstimate = inputEstimate;
    if (headers !== undefined) this.headers = headers;
    if (key?.budget || team?.budget) {
      this.watch = (flowing) => this.#watch(flowing.cost);
      this.quiet = (cost) => this.#quiet(cost);
    }
  }

  /** Settles the request: leaves the in-flight count, replaces the `tpm` estimate with the real
   * tokens, adds the cost to the settled spend and drops the reservation. Once only. */
  release(spent: Spent): void {
    if (this.#released) return;
    this.#released = true;
    const now = this.#now();
    const tokens = windowTokens(spent);
    for (const hold of [this.#key, this.#team]) {
      if (hold === null) continue;
      const { scope } = hold;
      scope.inFlight--;
      scope.lastUsed = now;
      if (hold.entry !== null) scope.tokens?.settle(hold.entry, tokens);
      if (hold.budget !== null) hold.budget.tracker.release(hold.budget.hold, spent.cost);
    }
  }

  /** The budget watch: records `cost` as this request's spend so far; the error to end the
   * stream with once settled + in-flight holds (this request at its actual) reach a budget. */
  #watch(cost: number): GatewayError | null {
    if (this.#released) return null;
    return this.#over(this.#key, cost) ?? this.#over(this.#team, cost);
  }

  /** Whether the watch at `cost` would neither end the stream for `hold`'s budget nor raise
   * the hold above its reservation (what {@link #over} would find, recording nothing). */
  #calm(hold: ScopeHold | null, cost: number): boolean {
    if (hold === null || hold.budget === null) return true;
    const { tracker, hold: held } = hold.budget;
    if (cost > held.reservation && cost > held.actual) return false;
    const total = tracker.peek(held, cost);
    return total < 0 || total < (hold.policy.budgetUsd ?? Infinity) - USD_EPSILON;
  }

  #quiet(cost: number): boolean {
    return this.#released || (this.#calm(this.#key, cost) && this.#calm(this.#team, cost));
  }

  #over(hold: ScopeHold | null, cost: number): GatewayError | null {
    if (hold === null || hold.budget === null) return null;
    const { tracker, hold: held } = hold.budget;
    const budget = hold.policy.budgetUsd ?? Infinity;
    const total = tracker.flow(held, cost);
    // A request that has spent nothing is not cut: ending it would save nothing.
    if (total < 0 || held.actual <= 0 || total < budget - USD_EPSILON) return null;
    return budgetReached(hold.scope, budgetFigures(hold.policy, tracker), total, this.#now());
  }
}
