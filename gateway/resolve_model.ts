/**
 * Model lookup for a request: catalog (aliases, patterns), endpoint type, provider credential.
 * @module
 */
import type { Catalog, ResolvedModel } from "../catalog/catalog.ts";
import { checkEndpoint } from "../catalog/check_endpoint.ts";
import type { EndpointType } from "../catalog/schema.ts";
import { GatewayError, invalidRequest, modelNotFound } from "../core/errors.ts";

/** The kind of work a route asks of a model. */
export type ModelUse = "chat" | "responses" | "messages" | "count_tokens" | "images";

/** The endpoint type each use needs. */
const NEEDS: Record<ModelUse, EndpointType> = {
  chat: "openai",
  responses: "openai",
  messages: "anthropic",
  count_tokens: "anthropic",
  images: "image-generation",
};

/** Resolves `id` for `use`, or throws the error the client should see: 404 not in the catalog,
 * 400 wrong endpoint type, 503 provider without credential. */
export function resolveModel(catalog: Catalog, id: unknown, use: ModelUse): ResolvedModel {
  if (typeof id !== "string" || id === "") {
    throw invalidRequest("The request names no model: set `model` to a catalog id.", "model");
  }
  const model = catalog.resolve(id);
  if (!model) throw modelNotFound(id);
  const mismatch = checkEndpoint(model, NEEDS[use]);
  if (mismatch) throw invalidRequest(`${mismatch}.`, "model", "unsupported_endpoint");
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

/** Whether `model` can take a request of `use` now (a fallback that cannot is passed over). */
export function canServe(catalog: Catalog, model: ResolvedModel, use: ModelUse): boolean {
  return checkEndpoint(model, NEEDS[use]) === null && catalog.missingCredential(model) === null;
}
