import assert from "node:assert/strict";
import { CatalogError } from "./catalog_error.ts";
import { fallbackIssues, modelsByName } from "./check_fallbacks.ts";
import { parseCatalogConfig } from "./parse_config.ts";
import type { CatalogConfigInput } from "./schema.ts";

type ModelInput = CatalogConfigInput["models"][number];

const model = (id: string, rest: Partial<ModelInput> = {}): ModelInput => ({
  id,
  provider: "up",
  endpoint_types: ["openai"],
  ...rest,
});

function config(models: ModelInput[]): CatalogConfigInput {
  return {
    providers: { up: { kind: "openai" } },
    models: [model("base", { aliases: ["fam"] }), ...models],
    setup_defaults: { flagship: "base", previous: "base", previous_mini: "base" },
  };
}

function errorLines(models: ModelInput[]): string[] {
  try {
    parseCatalogConfig(config(models), "catalog.json");
  } catch (error) {
    assert.ok(error instanceof CatalogError);
    return error.message.split("\n");
  }
  assert.fail("the config was accepted");
}

Deno.test("fallbacks name other models by id or alias, each once, in any order", () => {
  const parsed = parseCatalogConfig(
    config([
      model("a", { fallbacks: ["fam", "b"] }),
      model("b", { fallbacks: ["a"] }),
    ]),
    "catalog.json",
  );
  assert.deepEqual(fallbackIssues(parsed), []);
  assert.deepEqual(parsed.models[0]?.fallbacks, [], "fallbacks default to none");
  assert.equal(parsed.models[0]?.fallback_on_context_overflow, false);
});

Deno.test("a fallback must exist, not be the model itself, and appear once", () => {
  assert.deepEqual(
    errorLines([
      model("a", { aliases: ["a-short"], fallbacks: ["ghost", "a", "a-short", "base", "fam"] }),
      model("b", { fallbacks: ["base", "base"] }),
    ]),
    [
      'catalog.json: models[1].fallbacks[0]: "ghost" is not a model id or alias in models',
      'catalog.json: models[1].fallbacks[1]: "a" names this model itself',
      'catalog.json: models[1].fallbacks[2]: "a-short" names this model itself',
      'catalog.json: models[1].fallbacks[4]: "fam" names "base" again (also fallbacks[3])',
      'catalog.json: models[2].fallbacks[1]: duplicate fallback "base" (also fallbacks[0])',
    ],
  );
});

Deno.test("a fallback answers on every endpoint type of the model", () => {
  assert.deepEqual(
    errorLines([
      model("a", { endpoint_types: ["openai", "anthropic"], fallbacks: ["base"] }),
      model("b", {
        endpoint_types: ["anthropic", "image-generation", "openai"],
        output_modalities: ["text", "image"],
        fallbacks: ["base"],
      }),
    ]),
    [
      'catalog.json: models[1].fallbacks[0]: "base" does not answer on endpoint type ' +
      '"anthropic"; a fallback must answer on every endpoint type of the model',
      'catalog.json: models[2].fallbacks[0]: "base" does not answer on endpoint types ' +
      '"anthropic", "image-generation"; a fallback must answer on every endpoint type of the model',
    ],
  );
});

Deno.test("fallback_on_context_overflow needs a context window and a fallback with a larger one", () => {
  const overflow = { fallback_on_context_overflow: true };
  assert.deepEqual(
    errorLines([
      model("a", { ...overflow, fallbacks: ["base"] }),
      model("b", { ...overflow, context_window: 1000 }),
      model("c", { ...overflow, context_window: 1000, fallbacks: ["fam", "d"] }),
      model("d", { context_window: 1000 }),
      model("e", { ...overflow, context_window: 1000, fallbacks: ["ghost"] }),
    ]),
    [
      "catalog.json: models[1].fallback_on_context_overflow: needs the model's context_window " +
      "(the size a request overflows)",
      "catalog.json: models[2].fallback_on_context_overflow: needs a fallback whose " +
      "context_window is larger than 1000; fallbacks is empty",
      "catalog.json: models[3].fallback_on_context_overflow: needs a fallback whose " +
      'context_window is larger than 1000 ("fam": no context_window, "d": 1000)',
      'catalog.json: models[5].fallbacks[0]: "ghost" is not a model id or alias in models',
      "catalog.json: models[5].fallback_on_context_overflow: needs a fallback whose " +
      "context_window is larger than 1000; no fallback names another model in models",
    ],
  );
  const fine = parseCatalogConfig(
    config([
      model("small", { ...overflow, context_window: 1000, fallbacks: ["same", "large"] }),
      model("same", { context_window: 1000 }),
      model("large", { context_window: 8000 }),
    ]),
    "catalog.json",
  );
  assert.equal(fine.models[1]?.fallback_on_context_overflow, true);
});

Deno.test("modelsByName maps ids and aliases to their model", () => {
  const parsed = parseCatalogConfig(config([model("a")]), "catalog.json");
  const byName = modelsByName(parsed.models);
  assert.deepEqual([...byName.keys()], ["base", "fam", "a"]);
  assert.equal(byName.get("fam")?.id, "base");
});
