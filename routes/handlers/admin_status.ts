/**
 * `GET /admin/v1/status`: what this gateway process is doing now (`InFlight`), for the
 * dashboard's live count.
 * @module
 */
import type { RouteHandler } from "@hono/zod-openapi";
import type { GatewayDeps } from "../../gateway/exchange.ts";
import type { adminRoutes } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";

/** The admin status handler. */
export function adminStatusHandler(
  deps: Pick<GatewayDeps, "inflight" | "store">,
): RouteHandler<typeof adminRoutes.adminStatus.route, AppEnv> {
  return function adminStatus(c) {
    const { inflight } = deps;
    return c.json({
      object: "status" as const,
      in_flight: inflight.size,
      streams_open: inflight.streamsOpen(),
      draining: inflight.draining,
      store: deps.store.kind,
      time: new Date().toISOString(),
    }, 200);
  };
}
