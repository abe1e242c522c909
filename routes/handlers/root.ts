/**
 * `GET /` (and `HEAD /`): who answers here, the root address clients use, and where the OpenAPI
 * document and the docs host are.
 * @module
 */
import type { Context } from "hono";
import type { GatewayConfig } from "../../gateway/config.ts";
import type { AppEnv } from "../env.ts";
import { routes } from "../table.ts";

/** The docs host's address as seen by a request that came to `requestUrl`: `DOCS_URL` when set,
 * else the request's own host on the docs listener's port (`DOCS_PORT`). Null when the docs host
 * is off, or listens on a port the system picks at start (`DOCS_PORT=0`), which the API listener
 * does not know. */
function docsAddress(
  config: Pick<GatewayConfig, "docsUrl" | "docsPort">,
  requestUrl: string,
): string | null {
  if (config.docsUrl !== null) return config.docsUrl;
  if (config.docsPort === null || config.docsPort === 0) return null;
  const { protocol, hostname } = new URL(requestUrl);
  return `${protocol}//${hostname}:${config.docsPort}`;
}

/** The `GET /` handler. */
export function rootHandler(config: GatewayConfig) {
  return function root(c: Context<AppEnv>) {
    return c.json({
      name: "gatehouse" as const,
      api_base: config.publicBaseUrl ?? new URL(c.req.url).origin,
      openapi: routes.openapi.route.path,
      docs: docsAddress(config, c.req.url),
    }, 200);
  };
}
