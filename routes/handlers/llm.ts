/**
 * Handlers of the model routes — chat, Responses, Messages, token counting, images: each hands
 * its request to the gateway (`handover.ts` builds it, one builder for every model route).
 * @module
 */
import type { Context } from "hono";
import type { Wire } from "../../core/request.ts";
import type { GatewayDeps, LlmRequest } from "../../gateway/exchange.ts";
import { handleLlm } from "../../gateway/handle_llm.ts";
import { handleCountTokens } from "../../gateway/count_tokens.ts";
import { handleImages } from "../../gateway/images.ts";
import type { AppEnv } from "../env.ts";
import { handOver } from "../handover.ts";
import { routes } from "../table.ts";

/** The gateway's view of a language-model request: the handed-over request plus the client's
 * wire, headers and query. */
export async function llmRequest(
  c: Context<AppEnv>,
  clientWire: Wire,
  route: string,
): Promise<LlmRequest> {
  const url = c.req.url;
  const query = url.indexOf("?");
  return {
    ...await handOver(c, route),
    clientWire,
    headers: c.req.raw.headers,
    search: query === -1 ? "" : url.slice(query),
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

/** The `POST /v1/images/generations` handler. */
export function imagesHandler(deps: GatewayDeps) {
  return async function images(c: Context<AppEnv>): Promise<Response> {
    return await handleImages(deps, await handOver(c, routes.imagesGenerations.route.path));
  };
}
