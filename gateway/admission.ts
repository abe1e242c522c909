/**
 * The admit stage: the single hook where a request is checked against limits and its expected
 * cost reserved before any upstream call. Every model request passes through it once, after its
 * model is resolved; what it reserves is released by the lifecycle's settle, exactly once,
 * whatever the ending. Today's gateway admits everything; key policies and budgets plug in here.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
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
}

/** What a request turned out to spend, handed back when its reservation is released. */
export interface Spent {
  usage: Usage;
  images: number;
  cost: number;
  outcome: Outcome;
}

/** An admitted request's hold on its limits; released once, by settle. */
export interface Admission {
  release(spent: Spent): void;
}

/** Decides whether a request may go on. Throws a `GatewayError` (403, 429) to refuse it. */
export interface Admitter {
  admit(request: AdmissionRequest): Admission | Promise<Admission>;
}

const NOTHING_HELD: Admission = { release: () => {} };

/** The admitter of a gateway with no limits configured: every request goes on. */
export const admitEverything: Admitter = { admit: () => NOTHING_HELD };
