/**
 * {@link MemoryLimits}: the limits backend in plain memory, for a coordinator on a main thread
 * that worker threads reach through `port_limits.ts`. The semantics are Redis's
 * (`redis_limits.ts`) built from the in-process governor's own parts: an exact sliding `rpm`
 * window (`sliding_window.ts`), a `tpm` window whose entries settle to the real tokens
 * (`token_window.ts`), budgets with settled spend loaded once per period plus holds of
 * max(reservation, actual) (`budget.ts`), all in a {@link Scope} per key and team. Holds are
 * leases like Redis's (a holder that stops renewing loses them), and {@link dropOwner} drops a
 * worker's holds at once when it exits.
 * @module
 */
import type { BudgetHold, BudgetTracker } from "../budget.ts";
import { IDLE_DROP_MS } from "../governor.ts";
import { WINDOW_MS } from "../sliding_window.ts";
import type { Policy } from "../policy.ts";
import { Scope } from "../scope.ts";
import type { TokenEntry } from "../token_window.ts";
import type {
  AdmitCall,
  AdmitReply,
  FlowCall,
  FlowReply,
  LimitsBackend,
  Refused,
  ReleaseCall,
  RenewCall,
  ScopeFigures,
  ScopeId,
  ScopeLimits,
} from "./backend.ts";

const SWEEP_EVERY_MS = 60_000;

interface State {
  scope: Scope;
  /** Live holds in this scope, by request id. */
  holds: Map<string, Hold>;
}

interface Part {
  state: State;
  entry: TokenEntry | null;
  tracker: BudgetTracker | null;
  budget: BudgetHold | null;
}

interface Hold {
  id: string;
  owner: string | undefined;
  expiry: number;
  parts: Part[];
}

const keyOf = (s: ScopeId) => `${s.kind}:${s.id}`;

function policyOf(limits: ScopeLimits): Policy {
  return {
    rpm: limits.rpm,
    tpm: limits.tpm,
    maxParallel: limits.maxParallel,
    budgetUsd: limits.budget?.usd,
    budgetPeriod: limits.budget?.period,
  };
}

/** Shared limits in this process's memory; see the module doc. */
export class MemoryLimits implements LimitsBackend {
  readonly #states = new Map<string, State>();
  readonly #holds = new Map<string, Hold>();
  /** The `tpm` entries of holds whose lease ran out, by request id, while their window may
   * still count them: a release that comes late still settles them to the real tokens, as the
   * Redis script does (the tokens were spent). */
  readonly #lapsed = new Map<string, { at: number; entries: [State, TokenEntry][] }>();
  #nextSweep = 0;

  /** Checks and takes, atomically (no await between them); see {@link LimitsBackend.admit}. */
  admit(call: AdmitCall): Promise<AdmitReply> {
    const { now } = call;
    if (now >= this.#nextSweep) this.#sweep(now);
    const states = call.scopes.map((limits) => this.#state(limits, now));
    let load: number[] | null = null;
    let pending: Promise<void>[] | null = null;
    for (let i = 0; i < states.length; i++) {
      const budget = call.scopes[i]!.budget;
      const tracker = states[i]!.scope.budget;
      if (budget === undefined || tracker === null || tracker.ready(budget.period, now)) continue;
      const loaded = budget.loaded;
      if (loaded === undefined) (load ??= []).push(i);
      else (pending ??= []).push(tracker.load(budget.period, now, () => Promise.resolve(loaded)));
    }
    if (load !== null) return Promise.resolve({ kind: "load", scopes: load });
    // Set-if-absent: a tracker already loaded keeps its figure; the call is run again once set.
    if (pending !== null) return Promise.all(pending).then(() => this.admit(call));
    for (const state of states) this.#expire(state, now);
    if (call.peek) {
      return Promise.resolve({
        kind: "admitted",
        figures: this.#figures(states, call),
        others: [],
      });
    }
    const refused = this.#refusal(states, call);
    if (refused !== null) {
      return Promise.resolve({ kind: "refused", refused, figures: this.#figures(states, call) });
    }
    const others = this.#take(states, call);
    return Promise.resolve({ kind: "admitted", figures: this.#figures(states, call), others });
  }

  /** Ends the hold, settling its tokens and cost (the cost is still added when the lease had
   * expired, as Redis does). */
  release(call: ReleaseCall): Promise<void> {
    const hold = this.#holds.get(call.requestId);
    if (hold !== undefined) {
      this.#end(hold, call.tokens, call.cost, call.now);
      return Promise.resolve();
    }
    const lapsed = this.#lapsed.get(call.requestId);
    if (lapsed !== undefined) {
      this.#lapsed.delete(call.requestId);
      for (const [state, entry] of lapsed.entries) state.scope.tokens?.settle(entry, call.tokens);
    }
    for (const scope of call.scopes) {
      const tracker = scope.budget === null ? null : this.#states.get(keyOf(scope))?.scope.budget;
      // No hold left to release: a zero hold taken and released adds the cost to settled.
      if (tracker) tracker.release(tracker.hold(0), call.cost);
    }
    return Promise.resolve();
  }

  /** Records the request's spend so far; answers everyone else's settled + held per scope. */
  flow(call: FlowCall): Promise<FlowReply> {
    // Leases that ran out first, as the Redis script does: their holds count no more.
    for (const scope of call.scopes) {
      const state = this.#states.get(keyOf(scope));
      if (state !== undefined) this.#expire(state, call.now);
    }
    const hold = this.#holds.get(call.requestId);
    const others = call.scopes.map((scope) => {
      const key = keyOf(scope);
      const part = hold?.parts.find((p) => p.budget !== null && keyOf(p.state.scope) === key);
      if (part?.tracker && part.budget) {
        part.tracker.flow(part.budget, call.actual);
        // A settled figure forgotten, or of a period that ended, is not known (Redis: -1).
        if (!scope.budget || !part.tracker.ready(scope.budget.period, call.now)) return null;
        return part.tracker.settled + part.tracker.held - part.budget.held;
      }
      const tracker = this.#states.get(key)?.scope.budget;
      return tracker && scope.budget && tracker.ready(scope.budget.period, call.now)
        ? tracker.settled + tracker.held
        : null;
    });
    return Promise.resolve({ others });
  }

  /** Extends the leases of the live holds named. */
  renew(call: RenewCall): Promise<void> {
    for (const { requestId } of call.holds) {
      const hold = this.#holds.get(requestId);
      // A lease that already ran out stays out, whether or not it was swept yet.
      if (hold !== undefined && hold.expiry > call.now) hold.expiry = call.now + call.leaseMs;
    }
    return Promise.resolve();
  }

  /** Forgets the settled spend of `scopes` (their next admission loads the ledger's figure);
   * the holds in flight stay counted, as in Redis, where only the settled figure is deleted. */
  forget(scopes: ScopeId[]): Promise<void> {
    for (const scope of scopes) this.#states.get(keyOf(scope))?.scope.budget?.forget();
    return Promise.resolve();
  }

  /** Drops every hold of `owner`, as if its leases expired. */
  dropOwner(owner: string): Promise<void> {
    for (const hold of this.#holds.values()) {
      if (hold.owner === owner) this.#end(hold, null, 0, 0);
    }
    return Promise.resolve();
  }

  #state(limits: ScopeLimits, now: number): State {
    const key = keyOf(limits);
    let state = this.#states.get(key);
    if (state === undefined) {
      state = { scope: new Scope(limits.kind, limits.id), holds: new Map() };
      this.#states.set(key, state);
    }
    state.scope.align(policyOf(limits));
    state.scope.lastUsed = now;
    return state;
  }

  /** The governor's check order (checks.ts): budget, max_parallel, rpm, tpm; key then team. */
  #refusal(states: State[], call: AdmitCall): Refused | null {
    const { now, tokens, reservation, scopes } = call;
    for (let i = 0; i < states.length; i++) {
      const budget = scopes[i]!.budget;
      const tracker = states[i]!.scope.budget;
      if (budget && tracker && !tracker.fits(reservation, budget.usd)) {
        return { check: "budget", scope: i };
      }
    }
    for (let i = 0; i < states.length; i++) {
      const max = scopes[i]!.maxParallel;
      if (max !== undefined && states[i]!.holds.size >= max) return { check: "parallel", scope: i };
    }
    for (let i = 0; i < states.length; i++) {
      const window = states[i]!.scope.requests;
      if (scopes[i]!.rpm === undefined || window === null) continue;
      const waitMs = window.waitMs(now);
      if (waitMs > 0) return { check: "rpm", scope: i, waitMs };
    }
    for (let i = 0; i < states.length; i++) {
      const tpm = scopes[i]!.tpm;
      const window = states[i]!.scope.tokens;
      if (tpm === undefined || window === null || tokens === null) continue;
      const waitMs = window.waitMs(now, tokens, tpm);
      if (waitMs > 0) return { check: "tpm", scope: i, waitMs };
    }
    return null;
  }

  /** Takes the holds; answers each budget's snapshot of everyone else. */
  #take(states: State[], call: AdmitCall): (number | null)[] {
    const { now, tokens, reservation } = call;
    const hold: Hold = {
      id: call.requestId,
      owner: call.owner,
      expiry: now + call.leaseMs,
      parts: [],
    };
    const others: (number | null)[] = [];
    for (let i = 0; i < states.length; i++) {
      const state = states[i]!;
      const limits = call.scopes[i]!;
      const { scope } = state;
      state.holds.set(hold.id, hold);
      scope.inFlight = state.holds.size;
      if (limits.rpm !== undefined) scope.requests?.push(now);
      const entry = limits.tpm !== undefined && tokens !== null
        ? scope.tokens?.add(now, tokens) ?? null
        : null;
      const tracker = limits.budget !== undefined ? scope.budget : null;
      const budget = tracker?.hold(reservation) ?? null;
      others.push(tracker && budget ? tracker.settled + tracker.held - budget.held : null);
      hold.parts.push({ state, entry, tracker, budget });
    }
    this.#holds.set(hold.id, hold);
    return others;
  }

  #figures(states: State[], call: AdmitCall): ScopeFigures[] {
    const { now } = call;
    return states.map(({ scope, holds }, i): ScopeFigures => {
      const limits = call.scopes[i]!;
      const requests = limits.rpm !== undefined ? scope.requests : null;
      const tokens = limits.tpm !== undefined ? scope.tokens : null;
      const budget = limits.budget !== undefined ? scope.budget : null;
      return {
        requests: requests && { count: requests.count(now), resetAt: requests.resetAt(now) },
        tokens: tokens && { used: tokens.used(now), resetAt: tokens.resetAt(now) },
        inFlight: holds.size,
        budget: budget && { settled: budget.settled, held: budget.held, holds: budget.holds },
      };
    });
  }

  /** Ends `hold`: with its real tokens and cost on release, with nothing (tokens null) when
   * its lease expired or its owner went away. */
  #end(hold: Hold, tokens: number | null, cost: number, now: number): void {
    this.#holds.delete(hold.id);
    if (tokens === null) {
      const entries = hold.parts.flatMap(({ state, entry }) =>
        entry === null ? [] : [[state, entry] as [State, TokenEntry]]
      );
      if (entries.length > 0) this.#lapsed.set(hold.id, { at: now, entries });
    }
    for (const { state, entry, tracker, budget } of hold.parts) {
      state.holds.delete(hold.id);
      state.scope.inFlight = state.holds.size;
      if (tokens !== null) state.scope.lastUsed = now;
      if (entry !== null && tokens !== null) state.scope.tokens?.settle(entry, tokens);
      if (tracker !== null && budget !== null) tracker.release(budget, tokens === null ? 0 : cost);
    }
  }

  #expire(state: State, now: number): void {
    for (const hold of state.holds.values()) {
      if (hold.expiry <= now) this.#end(hold, null, 0, now);
    }
  }

  /** Drops states unused for {@link IDLE_DROP_MS} that hold nothing, as the governor does. */
  #sweep(now: number): void {
    this.#nextSweep = now + SWEEP_EVERY_MS;
    // An entry a lease outlived leaves its window within a window of the lease's end.
    for (const [id, lapsed] of this.#lapsed) {
      if (lapsed.at <= now - WINDOW_MS) this.#lapsed.delete(id);
    }
    for (const [key, state] of this.#states) {
      for (const hold of state.holds.values()) {
        if (hold.expiry <= now) this.#end(hold, null, 0, now);
      }
      if (now - state.scope.lastUsed >= IDLE_DROP_MS && state.scope.idle(now)) {
        this.#states.delete(key);
      }
    }
  }
}
