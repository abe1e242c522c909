/**
 * `GET /admin/v1/usage`: everyone's ledger totals over a window, optionally for one key or one
 * team's keys, optionally grouped by key, team, model or day. The window and the totals are read
 * and written as `GET /v1/usage` does (`usage.ts`).
 * @module
 */
import type { RouteHandler } from "@hono/zod-openapi";
import type { Store } from "../../store/store.ts";
import type { adminRoutes } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";
import { reportWindow, totalsWire } from "./usage.ts";

/** The admin usage handler. */
export function adminUsageHandler(
  store: Store,
): RouteHandler<typeof adminRoutes.adminUsage.route, AppEnv> {
  return async function adminUsage(c) {
    const query = c.req.valid("query");
    const { start, end } = reportWindow(query);
    const keyId = query.key_id === "" ? undefined : query.key_id;
    const team = query.team === "" ? undefined : query.team;
    const groupBy = query.group_by;
    const report = await store.usageReport({ keyId, team, start, end, groupBy });
    return c.json({
      object: "usage_report" as const,
      key_id: keyId ?? null,
      team: team ?? null,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      group_by: groupBy ?? null,
      totals: totalsWire(report.totals),
      ...(report.groups
        ? { groups: report.groups.map((g) => ({ key: g.key, ...totalsWire(g) })) }
        : {}),
    }, 200);
  };
}
