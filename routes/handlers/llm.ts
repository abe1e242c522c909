/**
 * Handlers of the model routes — chat, Responses, Messages, token counting, images: each takes
 * its handed-over request (`handover.ts` builds it, one builder for every model route) to the
 * gateway. One map, served both by the Hono app and by the model lane (`model_lane.ts`).
 * @module
 */
import type { Context } from "hono";
import type { Wire } from "../../core/request.ts";
import type { GatewayDeps } from "../../gateway/exchange.ts";
import { handleLlm } from "../../gateway/handle_llm.ts";
import { handleCountTokens } from "../../gateway/count_tokens.ts";
import { handleImages } from "../../gateway/images.ts";
import type { AppEnv } from "../env.ts";
import { type HandedOver, handOver, MODEL_ROUTES } from "../handover.ts";
import { routes, type RouteSpec } from "../table.ts";

/** What a model route does with its handed-over request and the client's query string (with its
 * `?`, or ""). */
export type ModelHandler = (request: HandedOver, search: string) => Promise<Response>;

/** The query string of `url`, with its `?`, or "". */
export function searchOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? "" : url.slice(query);
}

/** Every model route's handler; throws at start if a model route of the table has none. */
export function modelHandlers(deps: GatewayDeps): ReadonlyMap<RouteSpec, ModelHandler> {
  const llm = (clientWire: Wire): ModelHandler => (request, search) =>
    handleLlm(deps, { ...request, clientWire, search });
  const handlers = new Map<RouteSpec, ModelHandler>([
    [routes.chatCompletions, llm("openai_chat")],
    [routes.responses, llm("openai_responses")],
    [routes.messages, llm("anthropic_messages")],
    [
      routes.countTokens,
      (request, search) =>
        handleCountTokens(deps, { ...request, clientWire: "anthropic_messages", search }),
    ],
    [routes.imagesGenerations, (request) => handleImages(deps, request)],
  ]);
  for (const spec of MODEL_ROUTES) {
    if (!handlers.has(spec)) throw new Error(`model route ${spec.route.path} has no handler`);
  }
  return handlers;
}

/** The Hono handler of model route `spec`. Each records its row's canonical path as the ledger's
 * route, whichever twin was called. */
export function honoModelHandler(spec: RouteSpec, handler: ModelHandler) {
  return async function model(c: Context<AppEnv>): Promise<Response> {
    return await handler(await handOver(c, spec.route.path), searchOf(c.req.url));
  };
}
