/**
 * The admit stage: the single hook where a request is checked against limits and its expected
 * cost reserved before any upstream call. Every model request passes through it once, after its
 * model is resolved; what it reserves is released by the lifecycle's settle, exactly once,
 * whatever the ending. Today's gateway admits everything; key policies and budgets plug in here.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { GatewayError } from "../core/errors.ts";
import type { GovernorStatus } from "../governance/governor.ts";
import type { Usage } from "../core/response.ts";
import type { KeyRecord, Outcome } from "../store/store.ts";

/** What the admitter sees of a request. */
export interface AdmissionRequest {
  requestId: string;
  key: KeyRecord;
  model: ResolvedModel;
  /** Canonical route path. */
  route: string;
  body: Record<string, unknown>;
  stream: boolean;
  /** The request body's size in bytes when known (the input estimate's basis), else null. */
  bodyBytes: number | null;
}

/** What a request turned out to spend, handed back when its reservation is released. */
export interface Spent {
  usage: Usage;
  images: number;
  cost: number;
  outcome: Outcome;
}

/** What a streamed response has cost so far, as the budget watch sees it. */
export interface Flowing {
  /** Input tokens (the upstream's figure once it gave one, else the admission's estimate) and
   * output tokens delivered so far (metered from the stream when the upstream has not said). */
  usage: Usage;
  /** US dollars for that usage at the model's price. */
  cost: number;
}

/** An admitted request's hold on its limits; released once, by settle. */
export interface Admission {
  /** Rate-limit headers for the response (`x-ratelimit-*` on OpenAI routes,
   * `anthropic-ratelimit-*` on Messages routes); absent when the key has no rate limits. */
  readonly headers?: Record<string, string>;
  /** Present when the request's spend must be watched while it streams (a budget applies):
   * called as output flows; returns the error to end the stream with once the budget is
   * reached, else null. */
  watch?(flowing: Flowing): GatewayError | null;
  /** Optional, with `watch`: whether asking the watch at `cost` (dollars spent so far) would
   * change nothing: it would not refuse, and the request's hold would stay at its reservation.
   * Asked without recording anything; any lower cost is then as quiet. The lifecycle meters a
   * stream by an upper bound of its output while it is quiet, and counts it exactly and asks the
   * watch only once it is not (`gateway/meter.ts`). Without it, the watch is asked after every
   * delta. */
  quiet?(cost: number): boolean;
  /** The input-token estimate made at admission (0 when none was needed). */
  readonly inputEstimate?: number;
  release(spent: Spent): void;
}

/** Decides whether a request may go on. Throws a `GatewayError` (403, 429) to refuse it. */
export interface Admitter {
  admit(request: AdmissionRequest): Admission | Promise<Admission>;
  /** Where a key's budgets and rate limits stand (`GET /v1/usage`); absent when the admitter
   * keeps none. */
  status?(key: KeyRecord): Promise<GovernorStatus>;
}

const NOTHING_HELD: Admission = { release: () => {} };

/** The admitter of a gateway with no limits configured: every request goes on. */
export const admitEverything: Admitter = { admit: () => NOTHING_HELD };
