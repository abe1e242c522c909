/**
 * Serves the admin rows of the route table with their handlers, on the app the other routes are
 * served on (so the guard, auth and error handling are the same).
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayDeps } from "../../gateway/exchange.ts";
import { adminRoutes as r } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";
import {
  createKeyHandler,
  getKeyHandler,
  listKeysHandler,
  revokeKeyHandler,
  rotateKeyHandler,
  updateKeyHandler,
} from "./admin_keys.ts";
import {
  createTeamHandler,
  deleteTeamHandler,
  getTeamHandler,
  listTeamsHandler,
  updateTeamHandler,
} from "./admin_teams.ts";
import { adminUsageHandler } from "./admin_usage.ts";
import { adminRequestsHandler } from "./admin_requests.ts";
import { adminDeploymentsHandler } from "./admin_deployments.ts";
import { adminSeriesHandler } from "./admin_series.ts";
import { adminStatusHandler } from "./admin_status.ts";

/** Registers every admin route on `app`: the store's operations, and the deployments' health. */
export function registerAdminRoutes(app: OpenAPIHono<AppEnv>, deps: GatewayDeps): void {
  const { store } = deps;
  app.openapi(r.adminListKeys.route, listKeysHandler(store));
  app.openapi(r.adminCreateKey.route, createKeyHandler(store));
  app.openapi(r.adminGetKey.route, getKeyHandler(store));
  app.openapi(r.adminUpdateKey.route, updateKeyHandler(store));
  app.openapi(r.adminRevokeKey.route, revokeKeyHandler(store));
  app.openapi(r.adminRotateKey.route, rotateKeyHandler(store));
  app.openapi(r.adminListTeams.route, listTeamsHandler(store));
  app.openapi(r.adminCreateTeam.route, createTeamHandler(store));
  app.openapi(r.adminGetTeam.route, getTeamHandler(store));
  app.openapi(r.adminUpdateTeam.route, updateTeamHandler(store));
  app.openapi(r.adminDeleteTeam.route, deleteTeamHandler(store));
  app.openapi(r.adminUsage.route, adminUsageHandler(store));
  app.openapi(r.adminUsageSeries.route, adminSeriesHandler(store));
  app.openapi(r.adminRequests.route, adminRequestsHandler(store));
  app.openapi(r.adminDeployments.route, adminDeploymentsHandler(deps));
  app.openapi(r.adminStatus.route, adminStatusHandler(deps));
}
