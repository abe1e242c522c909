/**
 * An admission of the shared governor: its holds live in the limits backend (Redis, or a main
 * thread's memory), and its release is one backend call, sent without waiting.
 *
 * The budget watch is synchronous (`Admission.watch` is called as a stream's output flows), so
 * it cannot ask the backend. It keeps, per budget, a snapshot of everyone else's settled spend +
 * holds, taken at admission; the watch counts snapshot + this request's actual cost, cuts the
 * stream once that reaches the budget, and sends the backend a flow update — the hold raised to
 * max(reservation, actual) — whose reply refreshes the snapshot. Updates are coalesced: at most
 * one in flight per admission, then one with the latest spend.
 *
 * The bound this gives, across processes: a stream sees another stream's growth past its
 * reservation one round trip after that stream's own watch saw it (its update's trip), plus the
 * wait for its own next update's reply. So spend passes the budget by at most, per stream in
 * flight, the one delta that crossed (as in the in-process governor) plus what that stream
 * delivered during one flow round trip (an update in flight, then the reply that shows the
 * others' growth). Reservations themselves are exact: the admission counted every hold
 * atomically. `shared_admission_test.ts` checks the bound with two governors on one backend.
 * @module
 */
import type { GatewayError } from "../../core/errors.ts";
import type { Admission, Flowing, Spent } from "../../gateway/admission.ts";
import { USD_EPSILON } from "../budget.ts";
import { windowTokens } from "../held.ts";
import { type BudgetPeriod, periodEnd, periodStart } from "../policy.ts";
import { budgetReached } from "../refusals.ts";
import type { FlowReply, HeldScope, LimitsBackend, ScopeId } from "./backend.ts";

/** What an admission needs of the governor that made it. */
export interface AdmissionHost {
  readonly backend: LimitsBackend;
  now(): number;
  /** The admission was released: it leaves the heartbeat's live holds. */
  released(admission: SharedAdmission): void;
  /** A release or flow update failed (the backend is unreachable). */
  failed(error: unknown, scopes: ScopeId[]): void;
}

/** One budget the admission is watched against. */
export interface WatchedBudget {
  whose: ScopeId;
  usd: number;
  period: BudgetPeriod;
  /** Everyone else's settled + held, as the backend last said. */
  others: number;
}

/** See the module doc. */
export class SharedAdmission implements Admission {
  /** The hold's id in the backend: the request id made unique per admission. */
  readonly requestId: string;
  readonly headers?: Record<string, string>;
  readonly inputEstimate: number;
  readonly watch?: (flowing: Flowing) => GatewayError | null;
  readonly quiet?: (cost: number) => boolean;
  /** The scopes held (key, team), with the budget period at admission. */
  readonly scopes: HeldScope[];
  /** Its slot among the governor's live admissions (the governor sets it). */
  liveSlot = -1;
  readonly #host: AdmissionHost;
  readonly #budgets: WatchedBudget[];
  /** The scopes of {@link #budgets}, as a flow update names them. */
  readonly #budgetScopes: HeldScope[];
  readonly #reservation: number;
  #actual = 0;
  #sent = 0;
  #flowing = false;
  #released = false;

  /** An admission holding `scopes`, watched against `budgets` (none: no watch). */
  constructor(
    host: AdmissionHost,
    requestId: string,
    scopes: HeldScope[],
    budgets: WatchedBudget[],
    reservation: number,
    headers: Record<string, string> | undefined,
    inputEstimate: number,
  ) {
    this.#host = host;
    this.requestId = requestId;
    this.scopes = scopes;
    this.#budgets = budgets;
    this.#budgetScopes = scopes.filter((scope) => scope.budget !== null);
    this.#reservation = reservation;
    this.inputEstimate = inputEstimate;
    if (headers !== undefined) this.headers = headers;
    if (budgets.length > 0) {
      this.watch = (flowing) => this.#watch(flowing.cost);
      this.quiet = (cost) => this.#quiet(cost);
    }
  }

  /** Ends the holds with the real tokens and cost: one backend call, not awaited. */
  release(spent: Spent): void {
    if (this.#released) return;
    this.#released = true;
    this.#host.released(this);
    const now = this.#host.now();
    // The cost is settled into the period current at release, as the in-process tracker does.
    for (const scope of this.scopes) {
      if (scope.budget !== null) scope.budget.start = periodStart(scope.budget.period, now);
    }
    const call = {
      requestId: this.requestId,
      now,
      tokens: windowTokens(spent),
      cost: spent.cost,
      scopes: this.scopes,
    };
    this.#host.backend.release(call).catch((error) => this.#host.failed(error, this.scopes));
  }

  /** Counts snapshot + `cost` against each budget (key first); sends a flow update. */
  #watch(cost: number): GatewayError | null {
    if (this.#released) return null;
    if (cost > this.#actual) this.#actual = cost;
    const actual = this.#actual;
    if (actual > this.#sent) this.#send();
    // A request that has spent nothing is not cut: ending it would save nothing.
    if (actual <= 0) return null;
    for (const budget of this.#budgets) {
      const total = budget.others + actual;
      if (total < budget.usd - USD_EPSILON) continue;
      const now = this.#host.now();
      const figures = {
        budgetUsd: budget.usd,
        period: budget.period,
        settledUsd: budget.others,
        heldUsd: actual,
        holds: 1,
        resetsAt: periodEnd(budget.period, now),
      };
      return budgetReached(budget.whose, figures, total, now);
    }
    return null;
  }

  /** Whether the watch at `cost` would neither cut nor raise the hold past its reservation. */
  #quiet(cost: number): boolean {
    if (this.#released) return true;
    if (cost > this.#reservation && cost > this.#actual) return false;
    const counted = Math.max(cost, this.#actual);
    for (const budget of this.#budgets) {
      if (budget.others + counted >= budget.usd - USD_EPSILON) return false;
    }
    return true;
  }

  /** Sends the latest spend unless an update is in flight (its reply sends the next). */
  #send(): void {
    if (this.#flowing || this.#released) return;
    this.#flowing = true;
    this.#sent = this.#actual;
    const call = {
      requestId: this.requestId,
      now: this.#host.now(),
      actual: this.#sent,
      scopes: this.#budgetScopes,
    };
    this.#host.backend.flow(call).then(
      (reply) => this.#flowed(reply),
      (error) => {
        this.#flowing = false;
        this.#host.failed(error, this.#budgetScopes);
      },
    );
  }

  #flowed(reply: FlowReply): void {
    this.#flowing = false;
    for (let i = 0; i < this.#budgets.length; i++) {
      const others = reply.others[i];
      if (others !== null && others !== undefined) this.#budgets[i]!.others = others;
    }
    if (this.#actual > this.#sent) this.#send();
  }
}
