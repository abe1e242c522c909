/**
 * `GET /v1/models` and `GET /v1/models/{id}`: the OpenAI shape, or the Anthropic shape when the
 * request carries `anthropic-version` (Claude Code's model discovery).
 * @module
 */
import type { Context } from "hono";
import type { Catalog } from "../../catalog/catalog.ts";
import {
  anthropicModelList,
  anthropicModelObject,
  openaiModelList,
  openaiModelObject,
} from "../../catalog/listing.ts";
import { invalidRequest, modelNotFound } from "../../core/errors.ts";
import type { AppEnv } from "../env.ts";

/** The list handler. */
export function listModelsHandler(catalog: Catalog) {
  return function listModels(c: Context<AppEnv>) {
    if (!c.req.header("anthropic-version")) return c.json(openaiModelList(catalog), 200);
    const query = c.req.query();
    const limit = query.limit === undefined ? 20 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw invalidRequest(`limit=${query.limit} must be a whole number from 1 to 1000.`, "limit");
    }
    return c.json(
      anthropicModelList(catalog, { limit, afterId: query.after_id, beforeId: query.before_id }),
      200,
    );
  };
}

/** The single-model handler (aliases resolved). */
export function getModelHandler(catalog: Catalog) {
  return function getModel(c: Context<AppEnv>) {
    const id = c.req.param("id") ?? "";
    const body = c.req.header("anthropic-version")
      ? anthropicModelObject(catalog, id)
      : openaiModelObject(catalog, id);
    if (!body) throw modelNotFound(id);
    return c.json(body, 200);
  };
}
