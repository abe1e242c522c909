/**
 * The attempt stage's loop: runs a request's delivery against one planned deployment after
 * another (`attempt_plan.ts`) until one answers or none is left. Only failures before anything
 * reached the client are retried: delivery throws them as {@link AttemptFailed} (and a whole body
 * cut short as the stream-incomplete error) before it returns a response. When every attempt
 * failed, the client gets the last failure in its own envelope.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import { GatewayError, STREAM_IDLE_TIMEOUT, STREAM_INCOMPLETE } from "../core/errors.ts";
import { AttemptFailed, finalError, noHealthyDeployment, served } from "./attempt_failure.ts";
import { AttemptPlan } from "./attempt_plan.ts";
import type { GatewayDeps } from "./exchange.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { canServe, type ModelUse } from "./resolve_model.ts";

/** What the loop needs. */
export interface AttemptContext {
  deps: GatewayDeps;
  life: Lifecycle;
  /** Aborts when the client disconnects. */
  signal: AbortSignal;
  /** The requested model. */
  model: ResolvedModel;
  use: ModelUse;
}

/** Runs `deliver` on each planned deployment until one returns a response. */
export function withAttempts(
  ctx: AttemptContext,
  deliver: (model: ResolvedModel) => Promise<Response>,
): Promise<Response> {
  const { deps, life, signal, model } = ctx;
  // The common case — one deployment, usable — calls it straight away: no plan, no loop, no
  // async frame of its own (a layer of awaits measurably slowed streams at c=32). A plan is made
  // at the first failure.
  if (model.deployments.length === 1 && deps.health.usable(model.deployment.id)) {
    return deliver(model).catch((error) => {
      const failed = attemptFailure(error, signal, life);
      if (failed === null) throw error;
      life.attemptFailed(failed);
      return attemptLoop(ctx, deliver, { failure: failed, on: model });
    });
  }
  return attemptLoop(ctx, deliver, null);
}

/** The attempts after `first` (a failed direct attempt), or all of them. */
async function attemptLoop(
  ctx: AttemptContext,
  deliver: (model: ResolvedModel) => Promise<Response>,
  first: { failure: AttemptFailed; on: ResolvedModel } | null,
): Promise<Response> {
  const { deps, life, signal, model } = ctx;
  const plan = new AttemptPlan(model, {
    catalog: deps.catalog,
    health: deps.health,
    retries: deps.config.retries,
    serves: (fallback) => canServe(deps.catalog, fallback, ctx.use),
    triedFirst: first !== null,
  });
  let failure = first?.failure ?? null;
  let failedOn = first?.on ?? null;
  for (;;) {
    const next = plan.next(failure, failedOn?.deployment ?? null);
    if (next === null) {
      if (failure === null) throw noHealthyDeployment(model.id, plan.soonestRecovery());
      const error = finalError(failure, life.attempts);
      throw failedOn === null ? error : served(error, failedOn.id);
    }
    if (next.waitMs > 0) {
      const from = performance.now();
      try {
        await pause(next.waitMs, signal, life);
      } finally {
        life.paused(performance.now() - from);
      }
    }
    const before = life.attempts;
    try {
      return await deliver(next.model);
    } catch (error) {
      const failed = attemptFailure(error, signal, life);
      if (failed === null) {
        // A fallback that cannot take this request (its wire cannot carry it) before any call:
        // the earlier upstream failure is what the client should hear about.
        if (failure === null || life.attempts !== before || !(error instanceof GatewayError)) {
          throw error;
        }
        deps.log.warn("fallback skipped", {
          requestId: life.requestId,
          model: next.model.id,
          error: error.message,
        });
        plan.skipModel();
        failedOn = null;
        continue;
      }
      life.attemptFailed(failed);
      failure = failed;
      failedOn = next.model;
    }
  }
}

/** The retryable failure `error` stands for, or null when it ends the request. */
function attemptFailure(
  error: unknown,
  signal: AbortSignal,
  life: Lifecycle,
): AttemptFailed | null {
  if (signal.aborted || life.shutdownError !== null) return null;
  if (error instanceof AttemptFailed) return error;
  // A whole body that broke off or went silent before its end: read before anything was sent.
  const code = error instanceof GatewayError ? error.code : null;
  if ((code === STREAM_INCOMPLETE || code === STREAM_IDLE_TIMEOUT) && life.attempts > 0) {
    return new AttemptFailed("cut", 200, error as GatewayError);
  }
  return null;
}

/** Waits `ms`; the client leaving or a shutdown ends the wait with their error. */
function pause(ms: number, signal: AbortSignal, life: Lifecycle): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      life.stopAttemptWith(null);
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
    life.stopAttemptWith((error) => {
      done();
      reject(error);
    });
  });
}
