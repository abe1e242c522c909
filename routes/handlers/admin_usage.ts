/**
 * `GET /admin/v1/usage`: everyone's ledger totals over a window, optionally for one key or one
 * team's keys, optionally grouped by key, team, model or day. The window and the totals are read
 * and written as `GET /v1/usage` does (`usage.ts`).
 * @module
 */
import type { RouteHandler } from "@hono/zod-openapi";
import { invalidRequest } from "../../core/errors.ts";
import type { Store } from "../../store/store.ts";
import type { adminRoutes } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";
import { parseInstant } from "./usage.ts";
import type { UsageTotals } from "../../store/store.ts";

function totals(t: UsageTotals) {
  return {
    requests: t.requests,
    input_tokens: t.inputTokens,
    output_tokens: t.outputTokens,
    cached_tokens: t.cachedTokens,
    cache_write_tokens: t.cacheWriteTokens,
    reasoning_tokens: t.reasoningTokens,
    images: t.images,
    cost: Math.round(t.cost * 1e6) / 1e6,
    outcomes: t.outcomes,
  };
}

const DAY = 86_400_000;

/** The admin usage handler. */
export function adminUsageHandler(
  store: Store,
): RouteHandler<typeof adminRoutes.adminUsage.route, AppEnv> {
  return async function adminUsage(c) {
    const query = c.req.valid("query");
    // The window is [start, end): "now" must include a request recorded this very millisecond.
    const end = parseInstant(query.end, "end") ?? Date.now() + 1;
    const start = parseInstant(query.start, "start") ?? end - 30 * DAY;
    if (start >= end) {
      throw invalidRequest(
        `start must be before end (got ${new Date(start).toISOString()} ≥ ${
          new Date(end).toISOString()
        }).`,
        "start",
      );
    }
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
      totals: totals(report.totals),
      ...(report.groups
        ? { groups: report.groups.map((g) => ({ key: g.key, ...totals(g) })) }
        : {}),
    }, 200);
  };
}
