/**
 * `GET /admin/v1/deployments`: every deployment routing may pick (`Catalog.deployments`), with
 * its breaker as this process sees it (`DeploymentHealth.view`).
 * @module
 */
import type { RouteHandler } from "@hono/zod-openapi";
import type { CatalogDeployment } from "../../catalog/catalog.ts";
import type { GatewayDeps } from "../../gateway/exchange.ts";
import { type HealthView, RECENT_WINDOW_MS } from "../../gateway/health.ts";
import type { adminRoutes } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";

/** A deployment and its health in their wire form. */
export function deploymentWire(d: CatalogDeployment, health: HealthView) {
  const { deployment } = d;
  return {
    id: deployment.id,
    model: d.model,
    pattern: d.pattern,
    provider: deployment.provider.name,
    upstream_id: deployment.upstreamId,
    weight: deployment.weight,
    listed: d.listed,
    state: health.state,
    in_flight: health.inFlight,
    consecutive_failures: health.consecutiveFailures,
    recent: {
      window_seconds: RECENT_WINDOW_MS / 1000,
      requests: health.recentRequests,
      errors: health.recentErrors,
      error_rate: health.recentRequests === 0 ? 0 : health.recentErrors / health.recentRequests,
    },
    cooldown_until: health.cooldownUntil === null
      ? null
      : new Date(health.cooldownUntil).toISOString(),
    last_error: health.lastError,
  };
}

/** The admin deployments handler. */
export function adminDeploymentsHandler(
  deps: Pick<GatewayDeps, "catalog" | "health">,
): RouteHandler<typeof adminRoutes.adminDeployments.route, AppEnv> {
  return function adminDeployments(c) {
    const data = deps.catalog.deployments().map((d) =>
      deploymentWire(d, deps.health.view(d.deployment.id))
    );
    return c.json({ object: "list" as const, data }, 200);
  };
}
