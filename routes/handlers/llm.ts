/**
 * Handlers of the language-model routes and token counting: hand the request to the gateway.
 * @module
 */
import type { Context } from "hono";
import type { Wire } from "../../core/request.ts";
import type { GatewayDeps, LlmRequest } from "../../gateway/exchange.ts";
import { handleLlm } from "../../gateway/handle_llm.ts";
import { handleCountTokens } from "../../gateway/count_tokens.ts";
import type { AppEnv } from "../env.ts";
import { routes } from "../table.ts";

/** The gateway's view of a route request: body, headers, query, abort signal and caller. */
export async function llmRequest(
  c: Context<AppEnv>,
  clientWire: Wire,
  route: string,
): Promise<LlmRequest> {
  const url = c.req.url;
  const query = url.indexOf("?");
  return {
    clientWire,
    route,
    body: await c.req.json() as Record<string, unknown>,
    headers: c.req.raw.headers,
    search: query === -1 ? "" : url.slice(query),
    signal: c.req.raw.signal,
    key: c.get("key"),
    requestId: c.get("requestId"),
  };
}

/** A handler for `clientWire` on canonical `route`. */
export function llmHandler(deps: GatewayDeps, clientWire: Wire, route: string) {
  return async function llm(c: Context<AppEnv>): Promise<Response> {
    return await handleLlm(deps, await llmRequest(c, clientWire, route));
  };
}

/** The `POST /v1/messages/count_tokens` handler. */
export function countTokensHandler(deps: GatewayDeps) {
  return async function countTokens(c: Context<AppEnv>): Promise<Response> {
    return await handleCountTokens(
      deps,
      await llmRequest(c, "anthropic_messages", routes.countTokens.route.path),
    );
  };
}
