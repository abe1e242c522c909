import assert from "node:assert/strict";
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { Catalog } from "./catalog.ts";
import { defaultCatalog } from "./default_catalog.ts";
import {
  anthropicModelList,
  modelListShape,
  openaiModelList,
  openaiModelObject,
} from "./listing.ts";
import {
  AnthropicModelList,
  ModelIdParams,
  OpenAIModelList,
  OpenAIModelObject,
} from "./listing_schema.ts";
import { parseCatalogConfig } from "./parse_config.ts";

/** A two-route app wired the way the route table is expected to use these schemas. */
function modelsApp(): OpenAPIHono {
  const catalog = Catalog.demo(parseCatalogConfig(defaultCatalog, "default"));
  const app = new OpenAPIHono();
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/models",
      responses: {
        200: {
          description: "Models",
          content: {
            "application/json": { schema: OpenAIModelList.or(AnthropicModelList) },
          },
        },
      },
    }),
    (c) =>
      c.json(
        modelListShape(c.req.raw.headers) === "anthropic"
          ? anthropicModelList(catalog, { limit: Number(c.req.query("limit") ?? 20) })
          : openaiModelList(catalog),
        200,
      ),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/v1/models/{id}",
      request: { params: ModelIdParams },
      responses: {
        200: {
          description: "One model",
          content: { "application/json": { schema: OpenAIModelObject } },
        },
        404: { description: "Not in the list" },
      },
    }),
    (c) => {
      const model = openaiModelObject(catalog, c.req.valid("param").id);
      return model === null ? c.body(null, 404) : c.json(model, 200);
    },
  );
  return app;
}

Deno.test("the listing schemas appear as named components in an OpenAPI document", () => {
  const doc = modelsApp().getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
  });
  const names = Object.keys(doc.components?.schemas ?? {}).sort();
  assert.deepEqual(names, [
    "AnthropicModel",
    "AnthropicModelList",
    "ModelPattern",
    "ModelPricing",
    "OpenAIModel",
    "OpenAIModelList",
    "SetupDefaults",
  ]);
  const single = doc.paths?.["/v1/models/{id}"]?.get?.parameters ?? [];
  assert.deepEqual(single.map((p) => ("in" in p ? `${p.in}:${p.name}` : "")), ["path:id"]);
});

Deno.test("served through Hono, both list shapes and the single model validate", async () => {
  const app = modelsApp();
  const openai = await (await app.request("/v1/models")).json();
  assert.equal(OpenAIModelList.parse(openai).data.length, defaultCatalog.models.length);
  const anthropic = await (await app.request("/v1/models?limit=1000", {
    headers: { "anthropic-version": "2023-06-01" },
  })).json();
  assert.equal(AnthropicModelList.parse(anthropic).has_more, false);
  const one = await (await app.request("/v1/models/claude-opus")).json();
  assert.equal(OpenAIModelObject.parse(one).id, "claude-opus-5-5");
  assert.equal((await app.request("/v1/models/claude-any-native-id")).status, 404);
});
