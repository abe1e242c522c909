/**
 * Endpoint type enforcement: a model answers only on the client routes its catalog entry names.
 * For a language model, `openai` covers /v1/chat/completions and /v1/responses and `anthropic`
 * covers /v1/messages. An image model (`image-generation`) answers only on the images route; its
 * `openai` type says which wire that route speaks, not that it chats.
 * @module
 */
import type { ResolvedModel } from "./resolved.ts";
import type { EndpointType } from "./schema.ts";

/** The client routes each endpoint type answers on (for a language model). */
export const ENDPOINT_ROUTES: Readonly<Record<EndpointType, readonly string[]>> = {
  openai: ["POST /v1/chat/completions", "POST /v1/responses"],
  anthropic: ["POST /v1/messages"],
  "image-generation": ["POST /v1/images/generations"],
};

/** Whether a model with these endpoint types answers on a route of type `needed`. */
export function servesEndpoint(types: readonly EndpointType[], needed: EndpointType): boolean {
  const image = types.includes("image-generation");
  return needed === "image-generation" ? image : !image && types.includes(needed);
}

/** Null when `model` serves `needed`; otherwise a message naming what it serves and the
 * route to use instead. */
export function checkEndpoint(model: ResolvedModel, needed: EndpointType): string | null {
  if (servesEndpoint(model.endpointTypes, needed)) return null;
  return `Model "${model.requested}" has endpoint types ${model.endpointTypes.join(", ")} ` +
    `and does not answer here; use ${suggestedRoutes(model.endpointTypes).join(" or ")}`;
}

function suggestedRoutes(types: readonly EndpointType[]): readonly string[] {
  if (types.includes("image-generation")) return ENDPOINT_ROUTES["image-generation"];
  return types.flatMap((type) => ENDPOINT_ROUTES[type]);
}
