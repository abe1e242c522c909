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
import { mayCall } from "../../governance/policy.ts";
import type { Allowed } from "../../catalog/listing.ts";

/** What the calling key may use: its policy's and its team's `models`. A model is listed when
 * each list names its id or one of its aliases (aliases resolve first, as on a model request). */
function allowedFor(c: Context<AppEnv>, catalog: Catalog): Allowed {
  const key = c.get("key");
  const policies = [key.policy, key.teamPolicy];
  return (id) => mayCall(policies, [id, ...catalog.lookup(id)?.aliases ?? []]);
}

/** The list handler. */
export function listModelsHandler(catalog: Catalog) {
  return function listModels(c: Context<AppEnv>) {
    const allowed = allowedFor(c, catalog);
    if (!c.req.header("anthropic-version")) {
      return c.json(openaiModelList(catalog, allowed), 200);
    }
    const query = c.req.query();
    const limit = query.limit === undefined ? 20 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw invalidRequest(`limit=${query.limit} must be a whole number from 1 to 1000.`, "limit");
    }
    return c.json(
      anthropicModelList(catalog, {
        limit,
        afterId: query.after_id,
        beforeId: query.before_id,
        allowed,
      }),
      200,
    );
  };
}

/** The single-model handler (aliases resolved). */
export function getModelHandler(catalog: Catalog) {
  return function getModel(c: Context<AppEnv>) {
    const id = c.req.param("id") ?? "";
    const allowed = allowedFor(c, catalog);
    const body = c.req.header("anthropic-version")
      ? anthropicModelObject(catalog, id, allowed)
      : openaiModelObject(catalog, id, allowed);
    if (!body) throw modelNotFound(id);
    return c.json(body, 200);
  };
}
