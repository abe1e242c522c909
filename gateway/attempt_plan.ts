/**
 * Which deployment the next attempt goes to, and after how long. The requested model's
 * deployments come first (up to 1 + GATEHOUSE_RETRIES attempts), then each fallback in order
 * with the same allowance. Among a model's usable deployments the one with the fewest requests
 * in flight for its weight wins, ties broken at random by weight; a deployment that already
 * failed in this request comes last, and a retry of it waits (the provider's short retry-after,
 * else a full-jitter backoff). A context overflow skips to the first fallback with a larger
 * window.
 * @module
 */
import type { Catalog, ResolvedDeployment, ResolvedModel } from "../catalog/catalog.ts";
import type { AttemptFailed } from "./attempt_failure.ts";
import type { DeploymentHealth } from "./health.ts";
import { backoffMs, MAX_HONOURED_RETRY_AFTER_MS } from "./retry_policy.ts";

/** One planned attempt. */
export interface PlannedAttempt {
  /** The model bound to the chosen deployment (`provider`, `upstreamId`, `deployment`). */
  model: ResolvedModel;
  /** How long to wait before calling it, ms. */
  waitMs: number;
}

/** What a plan needs. */
export interface PlanOptions {
  catalog: Catalog;
  health: DeploymentHealth;
  /** Extra attempts per model (GATEHOUSE_RETRIES). */
  retries: number;
  /** Whether a fallback model can serve this request (its endpoint type, for one). */
  serves(model: ResolvedModel): boolean;
  /** The requested model's bound deployment was already called (without a plan). */
  triedFirst?: boolean;
  random?: () => number;
}

/** `model` bound to `deployment`. */
export function boundTo(model: ResolvedModel, deployment: ResolvedDeployment): ResolvedModel {
  return { ...model, deployment, provider: deployment.provider, upstreamId: deployment.upstreamId };
}

/** The attempts of one request, decided one at a time. */
export class AttemptPlan {
  readonly #options: PlanOptions;
  readonly #chain: ResolvedModel[];
  #index = 0;
  #triesOnModel = 0;
  /** After a context overflow, only models with a larger window than this may be tried. */
  #minWindow = 0;
  #failures = 0;
  /** The last failure per deployment in this request. */
  readonly #failed = new Map<string, AttemptFailed>();
  readonly #random: () => number;

  constructor(model: ResolvedModel, options: PlanOptions) {
    this.#options = options;
    this.#random = options.random ?? Math.random;
    this.#chain = [model];
    if (options.triedFirst) this.#triesOnModel = 1;
  }

  /** The model whose deployments are being tried. */
  get current(): ResolvedModel {
    return this.#chain[Math.min(this.#index, this.#chain.length - 1)]!;
  }

  /** The next attempt after `failure` (null before the first), or null when none is left. */
  next(failure: AttemptFailed | null, failedOn: ResolvedDeployment | null): PlannedAttempt | null {
    if (failure !== null && failedOn !== null) {
      this.#failures++;
      this.#failed.set(failedOn.id, failure);
      if (failure.result === "context_overflow") return this.#overflow();
    }
    for (;;) {
      const model = this.#modelAt(this.#index);
      if (model === null) return null;
      const fits = (model.contextWindow ?? 0) > this.#minWindow || this.#minWindow === 0;
      if (fits && this.#triesOnModel <= this.#options.retries) {
        const planned = this.#pick(model);
        if (planned !== null) {
          this.#triesOnModel++;
          return planned;
        }
      }
      this.#index++;
      this.#triesOnModel = 0;
    }
  }

  /** Gives up on the current model (its fallback cannot carry this request). */
  skipModel(): void {
    this.#index++;
    this.#triesOnModel = 0;
  }

  /** The soonest end of a cool-down among the chain's deployments (ms from now), or null. */
  soonestRecovery(now = Date.now()): number | null {
    let soonest: number | null = null;
    for (let i = 0; this.#modelAt(i) !== null; i++) {
      for (const d of this.#modelAt(i)!.deployments) {
        const until = this.#options.health.cooldownUntil(d.id);
        if (until !== null && (soonest === null || until < soonest)) soonest = until;
      }
    }
    return soonest === null ? null : Math.max(0, soonest - now);
  }

  /** A context overflow: from here on only later fallbacks with a larger window. */
  #overflow(): PlannedAttempt | null {
    this.#minWindow = Math.max(this.#minWindow, this.current.contextWindow ?? 0);
    this.#index++;
    this.#triesOnModel = 0;
    return this.next(null, null);
  }

  /** The chain's model `i` (the requested one, then fallbacks resolved as they are reached);
   * fallbacks that cannot serve this request are passed over. */
  #modelAt(i: number): ResolvedModel | null {
    const first = this.#chain[0]!;
    while (this.#chain.length <= i) {
      const id = first.fallbacks[this.#chain.length - 1];
      if (id === undefined) return null;
      const fallback = this.#options.catalog.resolve(id);
      // Kept in the chain either way so positions stay stable; unusable ones have no
      // deployments to pick.
      const usable = fallback !== null && this.#options.serves(fallback);
      this.#chain.push(usable ? fallback : { ...first, deployments: [], id, contextWindow: 0 });
    }
    return this.#chain[i]!;
  }

  #pick(model: ResolvedModel): PlannedAttempt | null {
    const { health } = this.#options;
    const fresh: ResolvedDeployment[] = [];
    const tried: ResolvedDeployment[] = [];
    for (const d of model.deployments) {
      if (!health.usable(d.id)) continue;
      const failure = this.#failed.get(d.id);
      if (failure === undefined) fresh.push(d);
      // A provider that asked for a longer rest than the gateway waits, or that refused the
      // deployment's credential, is not called again.
      else if (failure.retrySame && (failure.retryAfterMs ?? 0) <= MAX_HONOURED_RETRY_AFTER_MS) {
        tried.push(d);
      }
    }
    if (fresh.length > 0) return { model: boundTo(model, this.#choose(fresh)), waitMs: 0 };
    if (tried.length > 0) {
      const d = this.#choose(tried);
      return { model: boundTo(model, d), waitMs: this.#waitBefore(d) };
    }
    // Cooling because this request's own attempt got a short retry-after: wait it out.
    let best: { d: ResolvedDeployment; wait: number } | null = null;
    for (const d of model.deployments) {
      const wait = this.#failed.get(d.id)?.retryAfterMs;
      if (wait === undefined || wait === null || wait > MAX_HONOURED_RETRY_AFTER_MS) continue;
      if (best === null || wait < best.wait) best = { d, wait };
    }
    return best === null ? null : { model: boundTo(model, best.d), waitMs: best.wait };
  }

  #waitBefore(d: ResolvedDeployment): number {
    const after = this.#failed.get(d.id)?.retryAfterMs ?? null;
    if (after !== null && after <= MAX_HONOURED_RETRY_AFTER_MS) return after;
    return backoffMs(this.#failures, this.#random);
  }

  /** Fewest in flight per unit of weight; ties by weighted random. */
  #choose(list: ResolvedDeployment[]): ResolvedDeployment {
    if (list.length === 1) return list[0]!;
    const load = (d: ResolvedDeployment) => this.#options.health.inFlight(d.id) / d.weight;
    const least = Math.min(...list.map(load));
    const tied = list.filter((d) => load(d) === least);
    let ticket = this.#random() * tied.reduce((sum, d) => sum + d.weight, 0);
    for (const d of tied) {
      ticket -= d.weight;
      if (ticket < 0) return d;
    }
    return tied[tied.length - 1]!;
  }
}
