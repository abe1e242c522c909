import assert from "node:assert/strict";
import { CatalogError } from "./catalog_error.ts";
import { semanticIssues } from "./check_semantics.ts";
import { parseCatalogConfig } from "./parse_config.ts";
import type { CatalogConfigInput } from "./schema.ts";

function config(): CatalogConfigInput {
  return {
    providers: {
      up: { kind: "openai", api_key_env: "UP_KEY" },
      other: { kind: "anthropic" },
    },
    models: [
      { id: "big", provider: "up", endpoint_types: ["openai"], aliases: ["fam"] },
      { id: "small", provider: "up", endpoint_types: ["openai"] },
      {
        id: "voice",
        provider: "up",
        endpoint_types: ["openai"],
        output_modalities: ["text", "audio"],
        flags: { special_purpose: true },
      },
      {
        id: "painter",
        provider: "up",
        endpoint_types: ["image-generation"],
        output_modalities: ["image"],
      },
    ],
    patterns: [{ pattern: "x-*", provider: "other", endpoint_types: ["anthropic"] }],
    setup_defaults: { flagship: "big", previous: "fam", previous_mini: "small" },
  };
}

function errorLines(edit: (c: CatalogConfigInput) => void): string[] {
  const input = config();
  edit(input);
  try {
    parseCatalogConfig(input, "catalog.json");
  } catch (error) {
    assert.ok(error instanceof CatalogError);
    return error.message.split("\n");
  }
  assert.fail("the config was accepted");
}

Deno.test("a consistent config has no semantic issues (aliases may be setup defaults)", () => {
  assert.deepEqual(semanticIssues(parseCatalogConfig(config(), "catalog.json")), []);
});

Deno.test("duplicate ids, duplicate aliases and alias collisions are errors", () => {
  assert.deepEqual(
    errorLines((c) => {
      c.models.push({ id: "small", provider: "up", endpoint_types: ["openai"] });
    }),
    ['catalog.json: models[4].id: duplicate id "small" (also models[1].id)'],
  );
  assert.deepEqual(
    errorLines((c) => {
      c.models[1] = { id: "small", provider: "up", endpoint_types: ["openai"], aliases: ["fam"] };
    }),
    ['catalog.json: models[1].aliases[0]: duplicate alias "fam" (also models[0].aliases[0])'],
  );
  assert.deepEqual(
    errorLines((c) => {
      c.models[1] = { id: "small", provider: "up", endpoint_types: ["openai"], aliases: ["big"] };
    }),
    [
      'catalog.json: models[1].aliases[0]: alias "big" collides with the id of models[0]; ' +
      "an id cannot also be an alias of another model",
    ],
  );
  assert.deepEqual(
    errorLines((c) => {
      c.models[1] = { id: "small", provider: "up", endpoint_types: ["openai"], aliases: ["small"] };
    }),
    ['catalog.json: models[1].aliases[0]: alias "small" repeats the model\'s own id'],
  );
});

Deno.test("models and patterns must name a defined provider", () => {
  assert.deepEqual(
    errorLines((c) => {
      c.models[1] = { id: "small", provider: "nope", endpoint_types: ["openai"] };
      c.patterns = [{ pattern: "x-*", provider: "gone", endpoint_types: ["openai"] }];
    }),
    [
      'catalog.json: models[1].provider: provider "nope" is not defined in providers ' +
      "(defined: up, other)",
      'catalog.json: patterns[0].provider: provider "gone" is not defined in providers ' +
      "(defined: up, other)",
    ],
  );
});

Deno.test("setup_defaults must name chat models by id or alias", () => {
  assert.deepEqual(
    errorLines((c) => {
      c.setup_defaults = { flagship: "huge", previous: "voice", previous_mini: "painter" };
    }),
    [
      'catalog.json: setup_defaults.flagship: "huge" is not a model id or alias in models',
      'catalog.json: setup_defaults.previous: "voice" is special-purpose and cannot be a chat ' +
      "default",
      'catalog.json: setup_defaults.previous_mini: "painter" does not output text and cannot ' +
      "be a chat default",
    ],
  );
});

Deno.test("provider, limit, modality and pattern rules", () => {
  assert.deepEqual(
    errorLines((c) => {
      c.providers["local"] = { kind: "openai_compatible" };
      c.models[1] = {
        id: "small",
        provider: "up",
        endpoint_types: ["openai", "image-generation"],
        context_window: 1000,
        max_output_tokens: 2000,
      };
      c.patterns = [
        { pattern: "x-*", provider: "up", endpoint_types: ["openai"] },
        { pattern: "x-*", provider: "other", endpoint_types: ["anthropic"] },
      ];
    }),
    [
      "catalog.json: providers.local.base_url: required for kind openai_compatible (the " +
      "upstream root, without /v1)",
      "catalog.json: models[1].max_output_tokens: 2000 exceeds context_window 1000",
      'catalog.json: models[1].output_modalities: endpoint type "image-generation" needs ' +
      '"image" among the output modalities',
      'catalog.json: patterns[1].pattern: duplicate pattern "x-*" (also patterns[0].pattern)',
    ],
  );
});

Deno.test("a model names its providers either by provider or by deployments, each defined", () => {
  assert.deepEqual(
    errorLines((c) => {
      c.models[0] = {
        id: "big",
        provider: "up",
        deployments: [{ provider: "up" }],
        endpoint_types: ["openai"],
        aliases: ["fam"],
      };
      c.models[1] = { id: "small", endpoint_types: ["openai"] };
    }),
    [
      'catalog.json: models[0]: give either "provider" or "deployments", not both',
      'catalog.json: models[1]: needs "provider" or "deployments" (who serves the model)',
    ],
  );
  assert.deepEqual(
    errorLines((c) => {
      c.models[1] = {
        id: "small",
        deployments: [{ provider: "up" }, { provider: "nope", weight: 2 }, { provider: "other" }],
        endpoint_types: ["openai"],
      };
    }),
    [
      'catalog.json: models[1].deployments[1].provider: provider "nope" is not defined in ' +
      "providers (defined: up, other)",
    ],
  );
});

Deno.test("deployments may list one provider more than once", () => {
  const input = config();
  input.models[1] = {
    id: "small",
    deployments: [{ provider: "up", upstream_id: "small-a" }, { provider: "up", weight: 3 }],
    endpoint_types: ["openai"],
  };
  assert.deepEqual(semanticIssues(parseCatalogConfig(input, "catalog.json")), []);
});
