/**
 * The limits backend: where the state of every key's and team's limits lives when several
 * processes, threads or instances must enforce one truth (`rpm`, `tpm`, `max_parallel`,
 * budgets). A {@link LimitsBackend} takes and returns plain, structured-cloneable data only, so
 * it can sit behind a MessagePort (`port_limits.ts`) as well as over Redis (`redis_limits.ts`)
 * or in this process's memory (`memory_limits.ts`).
 *
 * The admission path makes one call ({@link LimitsBackend.admit}): every limit of the key and its
 * team is checked in the governor's order (budget, max_parallel, rpm, tpm; key then team) and,
 * when all pass, the holds are taken, atomically. A refusal names the check and the scope, and
 * the figures its message and headers need; the process builds the error itself (refusals.ts).
 * The release is one call too. Holds are leases: renewed by their process, gone when it stops.
 * @module
 */
import type { BudgetPeriod } from "../policy.ts";
import type { ScopeKind } from "../scope.ts";

/** A key or team, by kind and id. */
export interface ScopeId {
  kind: ScopeKind;
  id: string;
}

/** One scope's limits for a call (absent: no such limit). */
export interface ScopeLimits extends ScopeId {
  rpm?: number;
  tpm?: number;
  maxParallel?: number;
  budget?: {
    usd: number;
    period: BudgetPeriod;
    /** Unix ms the period containing the call's `now` began. */
    start: number;
    /** The ledger's settled spend since `start`, when the backend asked for it ("load"): set
     * only if the backend still has none (set-if-absent). */
    loaded?: number;
  };
}

/** An admission (or, with `peek`, a read of the figures without checking or taking). */
export interface AdmitCall {
  requestId: string;
  /** The process clock, unix ms. */
  now: number;
  /** How long the holds live unless renewed. */
  leaseMs: number;
  /** Input tokens entered in `tpm` windows; null when the request does not count in them. */
  tokens: number | null;
  /** Dollars reserved against each budget. */
  reservation: number;
  /** The key's limits first, then its team's (1 or 2 entries). */
  scopes: ScopeLimits[];
  peek?: boolean;
  /** Who holds (set by `serveLimits` for a worker thread, so its holds go when it exits). */
  owner?: string;
}

/** Where one scope stands (before taking on a refusal, after taking on an admission). */
export interface ScopeFigures {
  /** The `rpm` window: admissions counted, and when the newest leaves it; null without rpm. */
  requests: { count: number; resetAt: number } | null;
  /** The `tpm` window: tokens counted, and when the newest entry leaves it; null without tpm. */
  tokens: { used: number; resetAt: number } | null;
  /** Requests in flight (live leases). */
  inFlight: number;
  /** Settled spend this period, dollars held by requests in flight, their number. */
  budget: { settled: number; held: number; holds: number } | null;
}

/** The check that refused, for scope `scope` (an index into the call's scopes). */
export type Refused =
  | { check: "budget"; scope: number }
  | { check: "parallel"; scope: number }
  | { check: "rpm"; scope: number; waitMs: number }
  /** `waitMs` Infinity: the request alone exceeds the limit. */
  | { check: "tpm"; scope: number; waitMs: number };

/** What {@link LimitsBackend.admit} answers. */
export type AdmitReply =
  | {
    kind: "admitted";
    figures: ScopeFigures[];
    /** Per scope with a budget: everyone else's settled + held when the hold was taken (the
     * budget watch's snapshot); null for a scope without a budget. */
    others: (number | null)[];
  }
  | { kind: "refused"; refused: Refused; figures: ScopeFigures[] }
  /** The settled spend of these scopes (indexes) is not known: load it, call again. */
  | { kind: "load"; scopes: number[] };

/** A scope a request holds, as its release and flow name it. */
export interface HeldScope extends ScopeId {
  /** Whether the request has an entry in the scope's `tpm` window. */
  tpm: boolean;
  /** The budget the request holds, with the period containing the call's `now`. */
  budget: { period: BudgetPeriod; start: number } | null;
}

/** The end of a request: its real tokens and cost. */
export interface ReleaseCall {
  requestId: string;
  now: number;
  tokens: number;
  cost: number;
  scopes: HeldScope[];
}

/** What a streaming request has spent so far (its hold grows to max(reservation, actual)). */
export interface FlowCall {
  requestId: string;
  now: number;
  actual: number;
  /** Its scopes with a budget. */
  scopes: HeldScope[];
}

/** Everyone else's settled + held, per scope of the flow call (null: not known). */
export interface FlowReply {
  others: (number | null)[];
}

/** A process's live holds, renewed for another lease. */
export interface RenewCall {
  now: number;
  leaseMs: number;
  holds: { requestId: string; scopes: ScopeId[] }[];
}

/** Shared limit state; see the module doc. Every method takes and returns plain data. */
export interface LimitsBackend {
  admit(call: AdmitCall): Promise<AdmitReply>;
  release(call: ReleaseCall): Promise<void>;
  flow(call: FlowCall): Promise<FlowReply>;
  renew(call: RenewCall): Promise<void>;
  /** Forgets the budget state of `scopes`, so the next admission reloads it from the ledger. */
  forget(scopes: ScopeId[]): Promise<void>;
  /** Drops every hold taken with `owner` (a worker thread that exited). */
  dropOwner?(owner: string): Promise<void>;
}

/** The default lease of a hold; the heartbeat renews live holds every third of it. */
export const LEASE_MS = 30_000;
