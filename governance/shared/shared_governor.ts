/**
 * The shared governor: the {@link Admitter} that holds requests to their key's and team's
 * policies like the in-process `Governor` (same checks in the same order, same refusals, same
 * rate-limit headers), with the limits' state in a {@link LimitsBackend} that several
 * processes, threads or instances share.
 *
 * `models` is checked here, without the backend. Everything else is ONE backend call per
 * admission: it checks and takes atomically, or answers what refused with the figures the
 * refusal's message and headers need. The first admission of a budget's period is the
 * exception: the backend says the settled spend must be loaded, this process reads the ledger
 * (one read shared by concurrent admissions) and calls again with it (set-if-absent there).
 * `count_tokens` is held to `models` only; image generation does not count in `tpm`.
 *
 * Holds are leases ({@link LEASE_MS}): while this process holds any, a heartbeat renews them
 * every third of a lease, in one call, so a process that dies loses its holds by itself. A lease
 * that ran out stays out, also when its process was only late (an event loop stalled, or Redis
 * unreachable, for longer than a lease): the request runs on, no longer counted in
 * `max_parallel` and holding no budget, and its release still adds its cost to the settled spend
 * (`backend_edges_test.ts`).
 * @module
 */
import { Slots } from "../../core/slots.ts";
import type { Admission, AdmissionRequest, Admitter } from "../../gateway/admission.ts";
import type { KeyRecord, Store } from "../../store/store.ts";
import { checkModels } from "../checks.ts";
import { expectedUse, IMAGES_ROUTE } from "../estimate.ts";
import { COUNT_TOKENS_ROUTE, type GovernorStatus, type RateSnapshot } from "../governor.ts";
import { budgetStatus, periodStart, type Policy } from "../policy.ts";
import { hasLimits } from "../scope.ts";
import type {
  AdmitCall,
  AdmitReply,
  HeldScope,
  LimitsBackend,
  ScopeFigures,
  ScopeId,
  ScopeLimits,
} from "./backend.ts";
import { LEASE_MS } from "./backend.ts";
import { admissionHeaders, type Part, rateSnapshot, refusalError } from "./shared_figures.ts";
import { type AdmissionHost, SharedAdmission, type WatchedBudget } from "./shared_admission.ts";

/** How a {@link SharedGovernor} is built. */
export interface SharedGovernorOptions {
  backend: LimitsBackend;
  /** Where budgets' settled spend is read (`spend` only). */
  store: Pick<Store, "spend">;
  /** The clock, unix ms; `Date.now` by default. */
  now?: () => number;
  /** How long a hold lives without renewal; {@link LEASE_MS} by default. */
  leaseMs?: number;
  /** Told when a release, flow update or renewal fails (the failover's cue). */
  onError?: (error: unknown, scopes: ScopeId[]) => void;
}

const NOTHING_HELD: Admission = { release: () => {} };
/** The limits backend (Redis, the coordinator) failed a call: what failover acts on. A failure of
 * the ledger read a budget needs is the store's, and passes as it is. */
export class LimitsBackendError extends Error {
  constructor(cause: unknown) {
    super(`the limits backend failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = "LimitsBackendError";
  }
}

/** How long a finished ledger load answers later asks for the same scope and period, ms. */
const LOAD_REUSE_MS = 1_000;

/** Admit calls for one request at most: the first may ask for a load, the second sets it. */
const MAX_CALLS = 3;

/** This isolate's part of every hold id (worker threads and instances each draw their own), and
 * the count of holds it made (shared by every governor of the isolate). */
const HOLD_TAG = crypto.randomUUID().slice(0, 8);
let holdsMade = 0;

/** See the module doc. */
export class SharedGovernor implements Admitter, AdmissionHost {
  readonly backend: LimitsBackend;
  readonly #store: Pick<Store, "spend">;
  readonly #now: () => number;
  readonly #leaseMs: number;
  readonly #onError: (error: unknown, scopes: ScopeId[]) => void;
  /** Admissions holding leases (renewed by the heartbeat). In reused slots, not a Map by request
   * id: a Map taking and dropping one per request kept each admission alive until a full
   * collection (`core/slots.ts`). */
  readonly #live = new Slots<SharedAdmission>();
  readonly #loads = new Map<string, { spend: Promise<number>; done: number | null }>();
  #heartbeat: ReturnType<typeof setInterval> | null = null;

  /** A governor over `options.backend`. */
  constructor(options: SharedGovernorOptions) {
    this.backend = options.backend;
    this.#store = options.store;
    this.#now = options.now ?? Date.now;
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.#onError = options.onError ?? (() => {});
  }

  /** Admits `request` or throws (rejects with) its refusal; see the module doc. */
  admit(request: AdmissionRequest): Admission | Promise<Admission> {
    const parts = partsOf(request.key);
    checkModels(request.key.policy, teamOf(request.key), request.model, request.body);
    if (parts.length === 0 || request.route === COUNT_TOKENS_ROUTE) return NOTHING_HELD;
    return this.#admit(request, parts);
  }

  /** The key's and its team's budgets and the key's rate limits, as the backend has them. */
  async status(key: KeyRecord): Promise<GovernorStatus> {
    const parts = partsOf(key);
    const now = this.#now();
    const figures = await this.#peek(parts, now);
    const budget = (kind: "key" | "team") => {
      const i = parts.findIndex((p) => p.kind === kind);
      const b = i < 0 ? null : figures[i]?.budget;
      if (!b) return { status: null, held: 0 };
      return { status: budgetStatus(parts[i]!.policy, b.settled + b.held, now), held: b.held };
    };
    const kb = budget("key");
    const tb = budget("team");
    return {
      key: kb.status,
      team: tb.status,
      inFlightUsd: kb.held,
      teamInFlightUsd: tb.held,
      rates: rateSnapshot(parts, figures),
    };
  }

  /** The key's rate limits now (what a response's headers would say before counting it). */
  async rates(key: KeyRecord): Promise<RateSnapshot> {
    const parts = partsOf(key);
    return rateSnapshot(parts, await this.#peek(parts, this.#now()));
  }

  /** The clock (for admissions). */
  now(): number {
    return this.#now();
  }

  /** An admission released: it leaves the live holds. */
  released(admission: SharedAdmission): void {
    // The heartbeat stays (it skips while nothing is held): one request at a time must not
    // make and clear a timer each.
    this.#live.remove(admission.liveSlot, admission);
  }

  /** A backend call of an admission failed. */
  failed(error: unknown, scopes: ScopeId[]): void {
    this.#onError(error, scopes);
  }

  /** Stops the heartbeat (the holds then expire with their leases). */
  close(): void {
    this.#stopHeartbeat();
  }

  async #admit(request: AdmissionRequest, parts: Part[]): Promise<Admission> {
    const now = this.#now();
    const expected = expectedUse(request.model, request.route, request.body, request.bodyBytes);
    const call: AdmitCall = {
      // Its own id per admission: the request id is the client's `x-request-id` when it sent
      // one, and two requests sharing one would share one entry in every window and lease.
      requestId: `${request.requestId}~${HOLD_TAG}${(++holdsMade).toString(36)}`,
      now,
      leaseMs: this.#leaseMs,
      tokens: request.route === IMAGES_ROUTE ? null : expected.inputTokens,
      reservation: expected.reservationUsd,
      scopes: parts.map((part) => limitsOf(part, now)),
    };
    const reply = await this.#call(call);
    if (reply.kind === "refused") {
      throw refusalError(request.route, parts, reply.figures, reply.refused, expected, now);
    }
    const scopes: HeldScope[] = [];
    const budgets: WatchedBudget[] = [];
    for (let i = 0; i < parts.length; i++) {
      const { kind, id, policy } = parts[i]!;
      const budget = call.scopes[i]!.budget;
      scopes.push({
        kind,
        id,
        tpm: policy.tpm !== undefined && call.tokens !== null,
        budget: budget ? { period: budget.period, start: budget.start } : null,
      });
      const others = reply.others[i];
      if (budget && others !== null && others !== undefined) {
        budgets.push({ whose: { kind, id }, usd: budget.usd, period: budget.period, others });
      }
    }
    const headers = admissionHeaders(request.route, parts, reply.figures, now);
    const admission = new SharedAdmission(
      this,
      call.requestId,
      scopes,
      budgets,
      expected.reservationUsd,
      headers,
      expected.inputTokens,
    );
    admission.liveSlot = this.#live.add(admission);
    this.#heartbeat ??= this.#startHeartbeat();
    return admission;
  }

  /** Figures without checking or taking. */
  async #peek(parts: Part[], now: number): Promise<ScopeFigures[]> {
    if (parts.length === 0) return [];
    const scopes = parts.map((part) => limitsOf(part, now));
    const call: AdmitCall = {
      requestId: "",
      now,
      leaseMs: this.#leaseMs,
      tokens: null,
      reservation: 0,
      scopes,
      peek: true,
    };
    return (await this.#call(call)).figures;
  }

  /** The admit call, after loading the settled spend the backend asks for. */
  async #call(call: AdmitCall): Promise<Exclude<AdmitReply, { kind: "load" }>> {
    for (let attempt = 1;; attempt++) {
      let reply: AdmitReply;
      try {
        reply = await this.backend.admit(call);
      } catch (error) {
        throw new LimitsBackendError(error);
      }
      if (reply.kind !== "load") return reply;
      if (attempt >= MAX_CALLS) throw new Error("the limits backend kept asking for a load");
      await Promise.all(reply.scopes.map(async (i) => {
        const scope = call.scopes[i]!;
        if (scope.budget) scope.budget.loaded = await this.#load(scope, scope.budget.start);
      }));
    }
  }

  /** The ledger's settled spend of `scope` since `start`: one read for concurrent callers, and
   * for {@link LOAD_REUSE_MS} after it (a reply asking for a load may have left the backend
   * before another caller's loaded figure was set there; the backend sets it only if absent). */
  #load(scope: ScopeId, start: number): Promise<number> {
    const key = `${scope.kind}:${scope.id}:${start}`;
    const now = performance.now();
    const known = this.#loads.get(key);
    if (known !== undefined && (known.done === null || now - known.done < LOAD_REUSE_MS)) {
      return known.spend;
    }
    const query = scope.kind === "key" ? { keyId: scope.id, start } : { team: scope.id, start };
    const load = { spend: this.#store.spend(query), done: null as number | null };
    load.spend.then(() => (load.done = performance.now()), () => this.#loads.delete(key));
    this.#loads.set(key, load);
    if (this.#loads.size > 1_000) this.#dropOldLoads(now);
    return load.spend;
  }

  #dropOldLoads(now: number): void {
    for (const [key, load] of this.#loads) {
      if (load.done !== null && now - load.done >= LOAD_REUSE_MS) this.#loads.delete(key);
    }
  }

  #startHeartbeat(): ReturnType<typeof setInterval> {
    const timer = setInterval(() => this.#renew(), Math.max(10, Math.floor(this.#leaseMs / 3)));
    // The heartbeat alone must not keep a process alive.
    if (typeof timer === "number") Deno.unrefTimer(timer);
    return timer;
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  #renew(): void {
    if (this.#live.size === 0) return;
    const holds = this.#live.values().map((a) => ({
      requestId: a.requestId,
      scopes: a.scopes,
    }));
    const call = { now: this.#now(), leaseMs: this.#leaseMs, holds };
    this.backend.renew(call).catch((error) => this.#onError(error, []));
  }
}

function teamOf(key: KeyRecord): { id: string; policy: Policy } | null {
  return key.team === null || key.teamPolicy === null
    ? null
    : { id: key.team, policy: key.teamPolicy };
}

/** The key's and team's scopes that have limits (key first). */
function partsOf(key: KeyRecord): Part[] {
  const parts: Part[] = [];
  if (hasLimits(key.policy)) parts.push({ kind: "key", id: key.id, policy: key.policy });
  const team = teamOf(key);
  if (team !== null && hasLimits(team.policy)) {
    parts.push({ kind: "team", id: team.id, policy: team.policy });
  }
  return parts;
}

function limitsOf({ kind, id, policy }: Part, now: number): ScopeLimits {
  const limits: ScopeLimits = { kind, id };
  if (policy.rpm !== undefined) limits.rpm = policy.rpm;
  if (policy.tpm !== undefined) limits.tpm = policy.tpm;
  if (policy.maxParallel !== undefined) limits.maxParallel = policy.maxParallel;
  if (policy.budgetUsd !== undefined) {
    const period = policy.budgetPeriod ?? "total";
    limits.budget = { usd: policy.budgetUsd, period, start: periodStart(period, now) };
  }
  return limits;
}
