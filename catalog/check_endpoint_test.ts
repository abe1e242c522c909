import assert from "node:assert/strict";
import { Catalog } from "./catalog.ts";
import { checkEndpoint, servesEndpoint } from "./check_endpoint.ts";
import { defaultCatalog } from "./default_catalog.ts";
import { parseCatalogConfig } from "./parse_config.ts";

const catalog = Catalog.demo(parseCatalogConfig(defaultCatalog, "default"));
const resolve = (id: string) => {
  const model = catalog.resolve(id);
  assert.ok(model, id);
  return model;
};

Deno.test("a language model answers every protocol its entry names", () => {
  assert.equal(checkEndpoint(resolve("gpt-5.5"), "openai"), null);
  assert.equal(checkEndpoint(resolve("gpt-5.5"), "anthropic"), null);
  assert.equal(checkEndpoint(resolve("claude-opus-5-5"), "openai"), null);
  assert.equal(checkEndpoint(resolve("claude-native-id"), "anthropic"), null);
});

Deno.test("an image model answers only the images route, though it has type openai", () => {
  for (const needed of ["openai", "anthropic"] as const) {
    assert.equal(
      checkEndpoint(resolve("gpt-image-1"), needed),
      'Model "gpt-image-1" has endpoint types image-generation, openai and does not answer here; use POST /v1/images/generations',
    );
  }
  assert.equal(checkEndpoint(resolve("gpt-image-1"), "image-generation"), null);
});

Deno.test("a chat model on the images route is pointed at its chat routes", () => {
  assert.equal(
    checkEndpoint(resolve("gpt-5"), "image-generation"),
    'Model "gpt-5" has endpoint types openai, anthropic and does not answer here; use POST /v1/chat/completions or ' +
      "POST /v1/responses or POST /v1/messages",
  );
  assert.equal(
    checkEndpoint(resolve("gpt-4o-audio-preview"), "anthropic"),
    'Model "gpt-4o-audio-preview" has endpoint types openai and does not answer here; use POST /v1/chat/completions or ' +
      "POST /v1/responses",
  );
});

Deno.test("servesEndpoint: a language model serves exactly its types", () => {
  assert.equal(servesEndpoint(["anthropic"], "anthropic"), true);
  assert.equal(servesEndpoint(["anthropic"], "openai"), false);
  assert.equal(servesEndpoint(["anthropic"], "image-generation"), false);
  assert.equal(servesEndpoint(["image-generation"], "image-generation"), true);
});
