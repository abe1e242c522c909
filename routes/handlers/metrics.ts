/**
 * `GET /metrics`: the instance's Prometheus series (every worker's, merged, with `--workers N`)
 * for an admin key. `METRICS_PORT` serves the same without a key (`observe/metrics/`).
 * @module
 */
import type { Context } from "hono";
import { GatewayError } from "../../core/errors.ts";
import type { GatewayDeps } from "../../gateway/exchange.ts";
import type { AppEnv } from "../env.ts";

/** The 404 of a gateway whose metrics are off. */
export function metricsOff(): GatewayError {
  return new GatewayError(
    "not_found",
    404,
    "Metrics are off on this gateway (GATEHOUSE_METRICS=off): unset GATEHOUSE_METRICS (or set " +
      "it to on) and restart to serve GET /metrics.",
    { code: "metrics_off" },
  );
}

/** The `/metrics` handler; reads `deps.metrics` per request (absent: metrics are off). */
export function metricsHandler(deps: Pick<GatewayDeps, "metrics">) {
  return async function metrics(c: Context<AppEnv>): Promise<Response> {
    const endpoint = deps.metrics;
    if (endpoint === undefined) throw metricsOff();
    const { contentType, text } = await endpoint.scrape();
    return c.body(text, 200, { "content-type": contentType, "cache-control": "no-store" });
  };
}
