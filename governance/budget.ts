/**
 * One budget's spend in its current period: what the ledger had settled when it was loaded,
 * plus every later release; and the holds of the requests in flight. A request holds
 * max(its reservation, what it has actually spent so far), so admission and the stream watch
 * both see a hard cap under concurrency.
 *
 * Holds carry over a reload (a period rollover, or an edit of `budget_period`): a request in
 * flight at the change stays held and watched against the new period, and its cost is added to
 * the new period's settled spend. Its ledger row is dated from its start, so the next reload
 * counts it where the ledger does: between the two, this memory errs high, never low. (Dropping
 * such holds let a stream that began before midnight run past any budget unwatched.)
 * @module
 */
import { type BudgetPeriod, periodEnd, periodStart } from "./policy.ts";

/** Slack for float sums of dollars (a millionth of a cent). */
export const USD_EPSILON = 1e-8;

/** An in-flight request's hold on a budget. */
export interface BudgetHold {
  readonly reservation: number;
  /** Dollars actually spent so far (from the watch). */
  actual: number;
  /** max(reservation, actual): what the hold counts. */
  held: number;
  released: boolean;
}

/** Reads settled spend since `start` (unix ms) from the ledger. */
export type SpendLoader = (start: number) => Promise<number>;

/** Spend and holds of one key's or one team's budget. */
export class BudgetTracker {
  #period: BudgetPeriod | null = null;
  #start = 0;
  #end: number | null = null;
  #settled = 0;
  #held = 0;
  #holds = 0;
  #loading: { period: BudgetPeriod; start: number; promise: Promise<void> } | null = null;

  /** Whether the settled spend of the period containing `now` is known. */
  ready(period: BudgetPeriod, now: number): boolean {
    return this.#period === period && (this.#end === null || now < this.#end);
  }

  /** Loads the settled spend of the period containing `now` (one load shared by every caller
   * that asks while it runs). The holds of requests in flight carry over (see the module doc). */
  load(period: BudgetPeriod, now: number, loader: SpendLoader): Promise<void> {
    const start = periodStart(period, now);
    const loading = this.#loading;
    if (loading !== null && loading.period === period && loading.start === start) {
      return loading.promise;
    }
    const promise: Promise<void> = loader(start).then((spent) => {
      if (this.#loading?.promise !== promise) return;
      this.#loading = null;
      this.#period = period;
      this.#start = start;
      this.#end = periodEnd(period, start);
      this.#settled = spent;
    }, (error) => {
      if (this.#loading?.promise === promise) this.#loading = null;
      throw error;
    });
    this.#loading = { period, start, promise };
    return promise;
  }

  /** Forgets the settled spend, so the next admission loads it again; the holds of requests in
   * flight stay counted (they are still running). */
  forget(): void {
    this.#period = null;
    this.#loading = null;
  }

  /** Settled spend this period (loaded plus released since). */
  get settled(): number {
    return this.#settled;
  }

  /** Dollars held by requests in flight: Σ max(reservation, actual). */
  get held(): number {
    return this.#held;
  }

  /** Requests in flight holding this budget. */
  get holds(): number {
    return this.#holds;
  }

  /** Unix ms the loaded period began. */
  get start(): number {
    return this.#start;
  }

  /** Unix ms the loaded period ends; null for `total`. */
  get end(): number | null {
    return this.#end;
  }

  /** Whether `reservation` more fits under `budget`: settled + held + reservation ≤ budget. */
  fits(reservation: number, budget: number): boolean {
    return this.#settled + this.#held + reservation <= budget + USD_EPSILON;
  }

  /** Takes a hold of `reservation` dollars (after {@link fits}). */
  hold(reservation: number): BudgetHold {
    this.#held += reservation;
    this.#holds++;
    return { reservation, actual: 0, held: reservation, released: false };
  }

  /**
   * Records what a request has spent so far and returns the budget's total as its watch counts
   * it: settled + every other hold + this request at its actual spend. -1 for a hold released.
   */
  flow(hold: BudgetHold, actual: number): number {
    if (hold.released) return -1;
    if (actual > hold.actual) {
      hold.actual = actual;
      const held = Math.max(hold.reservation, actual);
      this.#held += held - hold.held;
      hold.held = held;
    }
    return this.#settled + this.#held - hold.held + hold.actual;
  }

  /** What {@link flow} would return for `hold` at `actual`, computed the same way (so the same
   * to the last bit), without recording anything. */
  peek(hold: BudgetHold, actual: number): number {
    if (hold.released) return -1;
    if (!(actual > hold.actual)) return this.#settled + this.#held - hold.held + hold.actual;
    const held = Math.max(hold.reservation, actual);
    return this.#settled + (this.#held + (held - hold.held)) - held + actual;
  }

  /** Ends a hold, adding what the request cost to the settled spend; a second call does
   * nothing. */
  release(hold: BudgetHold, cost: number): void {
    if (hold.released) return;
    hold.released = true;
    this.#held = this.#holds === 1 ? 0 : this.#held - hold.held;
    this.#holds--;
    this.#settled += cost;
  }
}
