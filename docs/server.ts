/**
 * The docs listener main.ts starts beside the API listener (`DOCS_PORT`, default 8081; `off`
 * disables it).
 * @module
 */
import type { Catalog } from "../catalog/catalog.ts";
import { createDocsApp } from "./app.ts";
import { readDocsConfig } from "./config.ts";

/** What `startDocsServer` needs. */
export interface StartDocsOptions {
  /** The gateway app: its `GET /openapi.json` is the document the docs host serves, and it
   * answers the admin API requests the docs host forwards for the dashboard. */
  gateway: {
    request(path: string): Response | Promise<Response>;
    fetch(request: Request): Response | Promise<Response>;
  };
  catalog: Catalog;
  /** The environment (`DOCS_PORT`, `PUBLIC_BASE_URL`, `DOCS_URL`, `ALT_BASE_URL`,
   * `ALT_BASE_URL_ACTIVE`). */
  env: (name: string) => string | undefined;
  /** The interface to listen on (the API's `HOST`). */
  hostname: string;
  /** The API's port, for the default `PUBLIC_BASE_URL`. */
  apiPort: number;
  /** Where the start line goes (default `console.log`). */
  log?: (line: string) => void;
}

/** A running docs listener. */
export interface DocsServer {
  /** The local address, or null when `DOCS_PORT=off`. */
  url: string | null;
  /** Stops accepting and lets in-flight requests finish. */
  shutdown(): Promise<void>;
  /** Resolves when the listener has stopped. */
  finished: Promise<void>;
}

/** Reads the docs settings, takes the gateway's OpenAPI document and starts listening. Throws
 * an Error naming the variable when a setting is malformed. */
export async function startDocsServer(options: StartDocsOptions): Promise<DocsServer> {
  const config = readDocsConfig(options.env, { apiPort: options.apiPort });
  if (config.port === null) {
    return { url: null, shutdown: () => Promise.resolve(), finished: Promise.resolve() };
  }
  const response = await options.gateway.request("/openapi.json");
  if (!response.ok) throw new Error(`the gateway's /openapi.json answered ${response.status}`);
  const document = await response.json() as Record<string, unknown>;
  const app = createDocsApp({
    document: () => document,
    catalog: options.catalog,
    publicBaseUrl: config.publicBaseUrl,
    docsUrl: config.docsUrl,
    altBaseUrl: config.altBaseUrl,
    altActive: config.altActive,
    adminApi: (request) => options.gateway.fetch(request),
  });
  const log = options.log ?? console.log;
  const server = Deno.serve({
    port: config.port,
    hostname: options.hostname,
    onListen: ({ hostname, port }) => {
      const shown = hostname === "0.0.0.0" ? "127.0.0.1" : hostname;
      log(`gatehouse docs on http://${shown}:${port} (public address ${config.docsUrl})`);
    },
  }, app.fetch);
  const shown = options.hostname === "0.0.0.0" ? "127.0.0.1" : options.hostname;
  return {
    url: `http://${shown}:${server.addr.port}`,
    shutdown: () => server.shutdown(),
    finished: server.finished,
  };
}
