/**
 * What `GET /readyz` answers: whether this process should get traffic. It should not while its
 * store fails, while it drains for a shutdown, or while no deployment of any listed model (or
 * pattern) can take a request: every one cooling down after failures, or probing with its one
 * probe running. A model with one usable deployment is enough; the others are named only when
 * none is usable.
 * @module
 */
import type { GatewayDeps } from "./exchange.ts";

/** The readiness verdict. `reasons` names each failing check (empty when ready). */
export interface Readiness {
  ready: boolean;
  checks: { store: string; deployments: string; limits: string };
  reasons: string[];
}

/** Where limits are counted now, as the limits report it. */
export interface LimitsView {
  /** E.g. `shared (redis://127.0.0.1:6379)`, `local: Redis unreachable since …`. */
  detail: string;
  /** False while model requests are refused because limits cannot be counted (Redis down with
   * `GATEHOUSE_LIMITS_ON_REDIS_DOWN=reject`). */
  ready: boolean;
}

/** What readiness looks at. */
export type ReadinessDeps = Pick<
  GatewayDeps,
  "store" | "catalog" | "health" | "inflight" | "limits"
>;

/** Checks the store, the drain and the deployments' health. */
export async function readiness(deps: ReadinessDeps): Promise<Readiness> {
  const reasons: string[] = [];
  let store = "ok";
  try {
    await deps.store.countKeys();
  } catch (error) {
    store = error instanceof Error ? error.message : String(error);
    reasons.push(`store: ${store}`);
  }
  if (deps.inflight.draining) {
    const running = deps.inflight.size;
    reasons.push(
      `shutting down: ${deps.inflight.signal} received, ${running} request${
        running === 1 ? "" : "s"
      } in flight`,
    );
  }
  const deployments = deploymentsCheck(deps);
  reasons.push(...deployments.reasons);
  const limits = deps.limits?.() ?? { detail: "in process", ready: true };
  if (!limits.ready) reasons.push(`limits: ${limits.detail}`);
  return {
    ready: reasons.length === 0,
    checks: { store, deployments: deployments.check, limits: limits.detail },
    reasons,
  };
}

function deploymentsCheck(deps: ReadinessDeps): { check: string; reasons: string[] } {
  const byId = new Map(
    deps.catalog.deployments()
      .filter(({ listed }) => listed)
      .map(({ deployment }) => [deployment.id, deployment]),
  );
  const listed = [...byId.values()];
  if (listed.length === 0) {
    return {
      check: "none listed",
      reasons: ["deployments: no model can be served (no provider credentials are set)"],
    };
  }
  // The mock provider answers in process: it never fails over, so it is always usable.
  const unusable = listed.filter((deployment) =>
    deployment.provider.kind !== "mock" && !deps.health.usable(deployment.id)
  );
  if (unusable.length < listed.length) return { check: "ok", reasons: [] };
  return {
    check: "none usable",
    reasons: [
      `deployments: none of the ${listed.length} deployment${
        listed.length === 1 ? "" : "s"
      } of the listed models is usable`,
      ...unusable.map(({ id }) => {
        const until = deps.health.cooldownUntil(id);
        return until === null
          ? `deployment ${id} is probing (its one trial request is running)`
          : `deployment ${id} is cooling down until ${new Date(until).toISOString()}`;
      }),
    ],
  };
}
