/**
 * `GET /admin/v1/requests`: the ledger's requests over a window, newest first, each with its
 * upstream attempts, optionally for one key, team, model, outcome or request id. The window is
 * read as `GET /v1/usage` reads it (`usage.ts`).
 * @module
 */
import type { RouteHandler } from "@hono/zod-openapi";
import type { RequestRow, Store } from "../../store/store.ts";
import type { adminRoutes } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";
import { reportWindow } from "./usage.ts";

/** A ledger request in its wire form (dollars rounded to a millionth). */
export function requestWire(r: RequestRow) {
  return {
    request_id: r.requestId,
    key_id: r.keyId,
    model: r.model,
    served_model: r.servedModel,
    provider: r.upstream,
    route: r.route,
    status: r.status,
    outcome: r.outcome,
    attempts: r.attempts,
    attempt_log: r.attemptLog.map((a) => ({
      deployment: a.deployment,
      provider: a.provider,
      model: a.model,
      status: a.status,
      result: a.result,
      ms: a.ms,
    })),
    input_tokens: r.inputTokens,
    output_tokens: r.outputTokens,
    cost: Math.round(r.cost * 1e6) / 1e6,
    latency_ms: r.latencyMs,
    first_byte_ms: r.firstByteMs,
    stream: r.stream,
    time: new Date(r.time).toISOString(),
  };
}

/** An empty query value is no filter (`?team=` from a form or a script). */
const given = (value: string | undefined) => value === "" ? undefined : value;

/** The admin requests handler. */
export function adminRequestsHandler(
  store: Store,
): RouteHandler<typeof adminRoutes.adminRequests.route, AppEnv> {
  return async function adminRequests(c) {
    const query = c.req.valid("query");
    const { start, end } = reportWindow(query);
    const rows = await store.listRequests({
      start,
      end,
      keyId: given(query.key_id),
      team: given(query.team),
      model: given(query.model),
      outcome: query.outcome,
      requestId: given(query.request_id),
      limit: query.limit,
    });
    return c.json({ object: "list" as const, data: rows.map(requestWire) }, 200);
  };
}
