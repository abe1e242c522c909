/**
 * `METRICS_PORT`: `/metrics` without a key on its own listener (`METRICS_HOST`, default the
 * API's host), the usual scrape setup, so Prometheus needs no gatehouse key. With workers the
 * first worker serves it (as it serves the docs host), and each scrape covers every worker.
 * @module
 */
import type { Logger } from "../../gateway/exchange.ts";
import type { Listener } from "../../gateway/shutdown.ts";
import type { MetricsEndpoint } from "./metrics.ts";
import { readMetricsSettings } from "./settings.ts";

/** How the metrics listener is started. */
export interface MetricsServerOptions {
  hostname: string;
  port: number;
  endpoint: MetricsEndpoint;
  log: Logger;
}

/** A running metrics listener. */
export interface MetricsServer extends Listener {
  /** Where it listens (the port it got when asked for 0). */
  addr: Deno.NetAddr;
}

/** Serves `GET /metrics` (and HEAD) on its own port; anything else is a 404. */
export async function startMetricsServer(
  options: MetricsServerOptions,
): Promise<MetricsServer> {
  const { endpoint, log } = options;
  const handler = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname !== "/metrics") {
      return new Response("Not found: this listener serves GET /metrics only.\n", { status: 404 });
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response("Method not allowed: GET /metrics.\n", {
        status: 405,
        headers: { allow: "GET, HEAD" },
      });
    }
    try {
      const { contentType, text } = await endpoint.scrape();
      return new Response(request.method === "HEAD" ? null : text, {
        headers: { "content-type": contentType },
      });
    } catch (error) {
      log.error("metrics scrape failed", { error: String(error) });
      return new Response("The metrics could not be gathered; the log says why.\n", {
        status: 500,
      });
    }
  };
  let listening: () => void = () => {};
  const listened = new Promise<void>((resolve) => listening = resolve);
  const server = Deno.serve({
    hostname: options.hostname,
    port: options.port,
    onListen: () => listening(),
  }, handler);
  await listened;
  return { addr: server.addr, finished: server.finished, shutdown: () => server.shutdown() };
}

/** What an instance needs to start its metrics listener. */
export interface MetricsPortParts {
  env: (name: string) => string | undefined;
  /** The API's host (the default of `METRICS_HOST`). */
  hostname: string;
  /** This worker's number: only the first serves the port. */
  worker: number;
  /** The instance's metrics; undefined when they are off. */
  endpoint: MetricsEndpoint | undefined;
  log: Logger;
}

/** Starts the metrics listener when `METRICS_PORT` asks for one (first worker only, metrics on);
 * null otherwise. */
export async function serveMetricsPort(parts: MetricsPortParts): Promise<MetricsServer | null> {
  const settings = readMetricsSettings(parts.env);
  if (settings.port === null || parts.worker !== 0) return null;
  if (parts.endpoint === undefined) {
    parts.log.warn("METRICS_PORT is set but metrics are off (GATEHOUSE_METRICS=off): not served");
    return null;
  }
  const server = await startMetricsServer({
    hostname: settings.host ?? parts.hostname,
    port: settings.port,
    endpoint: parts.endpoint,
    log: parts.log,
  });
  const { hostname, port } = server.addr;
  parts.log.info(`metrics: http://${hostname}:${port}/metrics (no key)`);
  return server;
}
