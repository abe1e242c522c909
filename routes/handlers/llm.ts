/**
 * Handlers of the three language-model routes: hand the validated body to the gateway.
 * @module
 */
import type { Context } from "hono";
import type { Wire } from "../../core/request.ts";
import type { GatewayDeps } from "../../gateway/exchange.ts";
import { handleLlm } from "../../gateway/handle_llm.ts";
import type { AppEnv } from "../env.ts";

/** A handler for `clientWire` on canonical `route`. */
export function llmHandler(deps: GatewayDeps, clientWire: Wire, route: string) {
  return async function llm(c: Context<AppEnv>): Promise<Response> {
    const body = await c.req.json() as Record<string, unknown>;
    const url = c.req.url;
    const query = url.indexOf("?");
    return await handleLlm(deps, {
      clientWire,
      route,
      body,
      headers: c.req.raw.headers,
      search: query === -1 ? "" : url.slice(query),
      signal: c.req.raw.signal,
      key: c.get("key"),
    });
  };
}
