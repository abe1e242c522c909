/**
 * The in-process governor: the {@link Admitter} that holds each request to its key's policy and
 * its team's (`models`, `rpm`, `tpm`, `max_parallel`, budget). Limits are counted in this
 * process's memory, per key id and per team id (a team's windows and budget are shared by all
 * its keys); a budget's settled spend is read from the ledger once per period.
 *
 * Admission is synchronous — no promise, no turn of the event loop — except when a budget's
 * settled spend must first be loaded (the first request of a key or team, or the first after
 * its period rolled over); then `admit` returns a promise and every request that arrives while
 * the load runs waits for the same one.
 *
 * `/v1/messages/count_tokens` is checked against `models` only (Anthropic rates it apart, and
 * agents call it freely). Image generation counts in `rpm`, `max_parallel` and the budget, not
 * in `tpm`. Estimates: see `estimate.ts`.
 * @module
 */
import type { Admission, AdmissionRequest, Admitter } from "../gateway/admission.ts";
import type { KeyRecord, Store } from "../store/store.ts";
import { type Bound, checkModels, refusal } from "./checks.ts";
import { expectedUse, IMAGES_ROUTE } from "./estimate.ts";
import { HeldAdmission, type ScopeHold } from "./held.ts";
import { type BudgetStatus, budgetStatus, type Policy } from "./policy.ts";
import { type LimitView, rateHeaders, tighter } from "./rate_headers.ts";
import { hasLimits, Scope, type ScopeKind } from "./scope.ts";

/** The route exempt from every limit but `models`. */
export const COUNT_TOKENS_ROUTE = "/v1/messages/count_tokens";
/** A key's or team's state unused this long, and holding nothing, is dropped. */
export const IDLE_DROP_MS = 10 * 60_000;
const SWEEP_EVERY_MS = 60_000;

/** How a {@link Governor} is built. */
export interface GovernorOptions {
  /** Where budgets' settled spend is read (`spend` only). */
  store: Pick<Store, "spend">;
  /** The clock, unix milliseconds (tests inject one); `Date.now` by default. */
  now?: () => number;
}

/** A key's budgets as `GET /v1/usage` and the admin API show them. */
export interface GovernorStatus {
  /** The key's own budget; `spentUsd` is settled spend this period plus what the key's requests
   * in flight hold (max of reservation and actual spend each), as admission counts it. */
  key: BudgetStatus | null;
  /** The team's budget, the same way over all its keys. */
  team: BudgetStatus | null;
  /** Dollars the key's requests in flight hold (included in `key.spentUsd`). */
  inFlightUsd: number;
  /** Dollars the team's requests in flight hold (included in `team.spentUsd`). */
  teamInFlightUsd: number;
  rates: RateSnapshot;
}

/** A key's rate limits now: the tighter of key and team for each. */
export interface RateSnapshot {
  requests: LimitView | null;
  tokens: LimitView | null;
  /** The `max_parallel` with the least room, and the requests it counts in flight. */
  parallel: { scope: ScopeKind; limit: number; inFlight: number } | null;
}

const NOTHING_HELD: Admission = { release: () => {} };

/** The governor. One per process; see the module doc. */
export class Governor implements Admitter {
  readonly #store: Pick<Store, "spend">;
  readonly #now: () => number;
  readonly #keys = new Map<string, Scope>();
  readonly #teams = new Map<string, Scope>();
  #nextSweep = 0;

  /** A governor reading spend from `options.store`. */
  constructor(options: GovernorOptions) {
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
  }

  /** Admits `request` or throws its refusal (403 `model_not_allowed`, 429
   * `rate_limit_exceeded`, 429 `insufficient_quota`). A promise only while a budget loads. */
  admit(request: AdmissionRequest): Admission | Promise<Admission> {
    const { key } = request;
    const team = key.team === null || key.teamPolicy === null
      ? null
      : { id: key.team, policy: key.teamPolicy };
    checkModels(key.policy, team, request.model, request.body);
    const keyLimited = hasLimits(key.policy);
    const teamLimited = team !== null && hasLimits(team.policy);
    if ((!keyLimited && !teamLimited) || request.route === COUNT_TOKENS_ROUTE) return NOTHING_HELD;
    const now = this.#now();
    if (now >= this.#nextSweep) this.#sweep(now);
    const k = keyLimited ? this.#bound(this.#keys, "key", key.id, key.policy, now) : null;
    const t = teamLimited ? this.#bound(this.#teams, "team", team.id, team.policy, now) : null;
    const loading = this.#loads(k, t, now);
    if (loading !== null) return loading.then(() => this.admit(request));
    return this.#admitNow(request, k, t, now);
  }

  /** The key's and its team's budgets and the key's rate limits; loads a budget's settled spend
   * when it is not known yet. */
  async status(key: KeyRecord): Promise<GovernorStatus> {
    const now = this.#now();
    const k = this.#existing(this.#keys, "key", key.id, key.policy, now);
    const t = key.team === null || key.teamPolicy === null
      ? null
      : this.#existing(this.#teams, "team", key.team, key.teamPolicy, now);
    await this.#loads(k, t, now);
    const budget = (b: Bound | null) => {
      const tracker = b?.scope.budget;
      if (!b || !tracker) return { status: null, held: 0 };
      return {
        status: budgetStatus(b.policy, tracker.settled + tracker.held, now),
        held: tracker.held,
      };
    };
    const kb = budget(k);
    const tb = budget(t);
    return {
      key: kb.status,
      team: tb.status,
      inFlightUsd: kb.held,
      teamInFlightUsd: tb.held,
      rates: this.rates(key),
    };
  }

  /** The key's rate limits at this moment (what the headers of a response now would say,
   * before counting that response's own request). */
  rates(key: KeyRecord): RateSnapshot {
    const now = this.#now();
    const bounds: Bound[] = [];
    const add = (scopes: Map<string, Scope>, kind: ScopeKind, id: string, policy: Policy) => {
      if (!hasLimits(policy)) return;
      const scope = scopes.get(id) ?? new Scope(kind, id);
      scope.align(policy);
      bounds.push({ scope, policy });
    };
    add(this.#keys, "key", key.id, key.policy);
    if (key.team !== null && key.teamPolicy !== null) {
      add(this.#teams, "team", key.team, key.teamPolicy);
    }
    let requests: LimitView | null = null;
    let tokens: LimitView | null = null;
    let parallel: RateSnapshot["parallel"] = null;
    for (const { scope, policy } of bounds) {
      requests = tighter(requests, scope.requestView(policy, now));
      tokens = tighter(tokens, scope.tokenView(policy, now));
      const limit = policy.maxParallel;
      if (limit === undefined) continue;
      if (parallel === null || limit - scope.inFlight < parallel.limit - parallel.inFlight) {
        parallel = { scope: scope.kind, limit, inFlight: scope.inFlight };
      }
    }
    return { requests, tokens, parallel };
  }

  #admitNow(
    request: AdmissionRequest,
    k: Bound | null,
    t: Bound | null,
    now: number,
  ): Admission {
    const expected = expectedUse(request.model, request.route, request.body, request.bodyBytes);
    const countsTokens = request.route !== IMAGES_ROUTE;
    const headers = () => this.#headers(request.route, k, t, now) ?? {};
    const refused = refusal(k, t, { now, expected, countsTokens, headers });
    if (refused !== null) throw refused;
    const hold = (b: Bound | null): ScopeHold | null => {
      if (b === null) return null;
      const { scope, policy } = b;
      scope.inFlight++;
      if (policy.rpm !== undefined) scope.requests?.push(now);
      const entry = policy.tpm !== undefined && countsTokens
        ? scope.tokens?.add(now, expected.inputTokens) ?? null
        : null;
      const tracker = policy.budgetUsd !== undefined ? scope.budget : null;
      const budget = tracker ? { tracker, hold: tracker.hold(expected.reservationUsd) } : null;
      return { scope, policy, entry, budget };
    };
    const keyHold = hold(k);
    const teamHold = hold(t);
    const after = this.#headers(request.route, k, t, now);
    return new HeldAdmission(keyHold, teamHold, after, expected.inputTokens, this.#now);
  }

  /** The rate-limit headers at `now`: the tighter of key and team for requests and tokens. */
  #headers(
    route: string,
    k: Bound | null,
    t: Bound | null,
    now: number,
  ): Record<string, string> | undefined {
    const requests = tighter(
      k && k.scope.requestView(k.policy, now),
      t && t.scope.requestView(t.policy, now),
    );
    const tokens = tighter(
      k && k.scope.tokenView(k.policy, now),
      t && t.scope.tokenView(t.policy, now),
    );
    return rateHeaders(route, now, requests, tokens);
  }

  /** The loads a request must wait for: each budget whose period's spend is not known. */
  #loads(k: Bound | null, t: Bound | null, now: number): Promise<void> | null {
    let pending: Promise<void>[] | null = null;
    for (const b of [k, t]) {
      const tracker = b?.scope.budget;
      if (!b || !tracker) continue;
      const period = b.policy.budgetPeriod ?? "total";
      if (tracker.ready(period, now)) continue;
      const { kind, id } = b.scope;
      const loader = (start: number) =>
        this.#store.spend(kind === "key" ? { keyId: id, start } : { team: id, start });
      (pending ??= []).push(tracker.load(period, now, loader));
    }
    return pending === null ? null : Promise.all(pending).then(() => {});
  }

  #bound(
    scopes: Map<string, Scope>,
    kind: ScopeKind,
    id: string,
    policy: Policy,
    now: number,
  ): Bound {
    let scope = scopes.get(id);
    if (scope === undefined) {
      scope = new Scope(kind, id);
      scopes.set(id, scope);
    }
    scope.align(policy);
    scope.lastUsed = now;
    return { scope, policy };
  }

  /** Like {@link #bound} for a status read, without marking the scope used; null without a
   * budget. */
  #existing(
    scopes: Map<string, Scope>,
    kind: ScopeKind,
    id: string,
    policy: Policy,
    now: number,
  ): Bound | null {
    if (policy.budgetUsd === undefined) return null;
    const lastUsed = scopes.get(id)?.lastUsed ?? now;
    const bound = this.#bound(scopes, kind, id, policy, now);
    bound.scope.lastUsed = lastUsed;
    return bound;
  }

  /** Drops states unused for {@link IDLE_DROP_MS} that hold nothing (no request in flight, no
   * window entry): at most once a minute, from admission. */
  #sweep(now: number): void {
    this.#nextSweep = now + SWEEP_EVERY_MS;
    for (const scopes of [this.#keys, this.#teams]) {
      for (const [id, scope] of scopes) {
        if (now - scope.lastUsed >= IDLE_DROP_MS && scope.idle(now)) scopes.delete(id);
      }
    }
  }
}
