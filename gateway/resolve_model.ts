/**
 * Model lookup for a request: catalog (aliases, patterns), endpoint type, provider credential.
 * @module
 */
import type { Catalog, ResolvedModel } from "../catalog/catalog.ts";
import { GatewayError, invalidRequest, modelNotFound } from "../core/errors.ts";

/** The kind of work a route asks of a model. */
export type ModelUse = "chat" | "responses" | "messages" | "count_tokens" | "images";

const ROUTE_OF: Record<ModelUse, string> = {
  chat: "POST /v1/chat/completions",
  responses: "POST /v1/responses",
  messages: "POST /v1/messages",
  count_tokens: "POST /v1/messages/count_tokens",
  images: "POST /v1/images/generations",
};

/** Whether a model with `types` serves `use`. An image-generation model serves only the images
 * route (its `openai` type says which wire that route speaks); a language model serves chat and
 * responses through `openai`, messages and token counting through `anthropic`. */
export function serves(types: readonly string[], use: ModelUse): boolean {
  const image = types.includes("image-generation");
  switch (use) {
    case "images":
      return image;
    case "chat":
    case "responses":
      return !image && types.includes("openai");
    case "messages":
    case "count_tokens":
      return !image && types.includes("anthropic");
  }
}

/** Resolves `id` for `use`, or throws the error the client should see: 404 not in the catalog,
 * 400 wrong endpoint type, 503 provider without credential. */
export function resolveModel(catalog: Catalog, id: unknown, use: ModelUse): ResolvedModel {
  if (typeof id !== "string" || id === "") {
    throw invalidRequest("The request names no model: set `model` to a catalog id.", "model");
  }
  const model = catalog.resolve(id);
  if (!model) throw modelNotFound(id);
  if (!serves(model.endpointTypes, use)) {
    const fits = (Object.keys(ROUTE_OF) as ModelUse[]).filter((u) => serves(model.endpointTypes, u))
      .map((u) => ROUTE_OF[u]);
    throw invalidRequest(
      `Model "${id}" has endpoint types ${model.endpointTypes.join(", ")} and cannot serve ${
        ROUTE_OF[use]
      }; ` +
        `it answers on ${fits.join(", ") || "no route"}.`,
      "model",
      "unsupported_endpoint",
    );
  }
  const missing = catalog.missingCredential(model);
  if (missing) {
    throw new GatewayError(
      "unavailable",
      503,
      `Model "${id}" is served by provider "${model.provider.name}", which has no credential: the operator must set ${missing}.`,
      { code: "provider_not_configured" },
    );
  }
  return model;
}
