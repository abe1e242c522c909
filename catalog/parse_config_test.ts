import assert from "node:assert/strict";
import { CatalogError } from "./catalog_error.ts";
import { parseCatalogConfig, parseCatalogText } from "./parse_config.ts";

/** A small valid config; each case breaks one thing. */
type Config = Record<string, unknown> & {
  providers: Record<string, unknown>;
  models: Record<string, unknown>[];
};

function config(): Config {
  return {
    providers: { up: { kind: "openai", api_key_env: "UP_KEY", headers: { "x-team": "a" } } },
    models: [
      { id: "m1", provider: "up", endpoint_types: ["openai"] },
      { id: "m2", provider: "up", endpoint_types: ["openai", "anthropic"] },
    ],
    patterns: [{ pattern: "up-*", provider: "up", endpoint_types: ["openai"] }],
    setup_defaults: { flagship: "m1", previous: "m1", previous_mini: "m2" },
  };
}

/** The error lines for a broken config, as the start-up would print them. */
function errorLines(input: unknown): string[] {
  try {
    parseCatalogConfig(input, "catalog.json");
  } catch (error) {
    assert.ok(error instanceof CatalogError, `expected a CatalogError, got ${error}`);
    assert.equal(error.source, "catalog.json");
    return error.message.split("\n");
  }
  assert.fail("the config was accepted");
}

function broken(edit: (c: Config) => void): Config {
  const c = config();
  edit(c);
  return c;
}

Deno.test("parseCatalogConfig accepts a valid config and fills defaults", () => {
  const parsed = parseCatalogConfig(config(), "catalog.json");
  const first = parsed.models[0];
  assert.ok(first);
  assert.equal(first.openai_wire, "chat");
  assert.deepEqual(first.input_modalities, ["text"]);
  assert.deepEqual(first.flags, { special_purpose: false, hidden: false });
  assert.deepEqual(first.aliases, []);
  assert.equal(parsed.patterns[0]?.openai_wire, "chat");
});

Deno.test("bad field values name the file, the field path, the reason and the value", () => {
  const cases: [Config, string][] = [
    [
      broken((c) => (c.models[1] = { ...c.models[1], endpoint_types: ["chat"] })),
      'catalog.json: models[1].endpoint_types[0]: Invalid option: expected one of "openai"|"anthropic"|"image-generation" (got "chat")',
    ],
    [
      broken((c) => (c.providers = { up: { kind: "azure" } })),
      'catalog.json: providers.up.kind: Invalid option: expected one of "openai"|"anthropic"|"openai_compatible"|"mock" (got "azure")',
    ],
    [
      broken((c) => (c.providers = { up: { kind: "openai", base_url: "ftp://files" } })),
      'catalog.json: providers.up.base_url: Invalid URL (got "ftp://files")',
    ],
    [
      broken((c) => (c.providers = { up: { kind: "openai", api_key_env: "up_key" } })),
      'catalog.json: providers.up.api_key_env: an upper-case environment variable name (got "up_key")',
    ],
    [
      broken((c) => (c.models[0] = { ...c.models[0], pricing: { input: -1 } })),
      "catalog.json: models[0].pricing.input: Too small: expected number to be >=0 (got -1)",
    ],
    [
      broken((c) => (c.models[0] = { ...c.models[0], context_window: 1.5 })),
      "catalog.json: models[0].context_window: Invalid input: expected int, received number (got 1.5)",
    ],
    [
      broken((c) => (c.models[0] = { ...c.models[0], id: "-bad id" })),
      'catalog.json: models[0].id: letters, digits and . _ : / - (not first) (got "-bad id")',
    ],
    [
      broken((
        c,
      ) => (c.patterns = [{ pattern: "claude", provider: "up", endpoint_types: ["anthropic"] }])),
      'catalog.json: patterns[0].pattern: a prefix followed by one trailing * (got "claude")',
    ],
    [
      broken((c) => (c.models[0] = { ...c.models[0], endpoint_types: [] })),
      "catalog.json: models[0].endpoint_types: Too small: expected array to have >=1 items",
    ],
  ];
  for (const [input, line] of cases) assert.deepEqual(errorLines(input), [line]);
});

Deno.test("a missing required field is reported as missing, with the expected type", () => {
  const input = broken((c) => {
    delete c.models[0]?.endpoint_types;
    delete c.setup_defaults;
  });
  assert.deepEqual(errorLines(input), [
    "catalog.json: models[0].endpoint_types: required field is missing (expected array)",
    "catalog.json: setup_defaults: required field is missing (expected object)",
  ]);
});

Deno.test("an unknown field is pointed at, with the field probably meant", () => {
  const input = broken((c) => {
    c.models[0] = { id: "m1", provider: "up", endpoint_type: ["openai"] };
    c.extra_stuff = true;
  });
  assert.deepEqual(errorLines(input), [
    "catalog.json: models[0].endpoint_types: required field is missing (expected array)",
    'catalog.json: models[0].endpoint_type: unknown field; did you mean "endpoint_types"?',
    "catalog.json: extra_stuff: unknown field; allowed fields: $schema, providers, models, patterns, setup_defaults",
  ]);
});

Deno.test("an unknown field inside a nested object lists that object's fields", () => {
  const input = broken((c) => (c.models[0] = { ...c.models[0], flags: { hiden: true } }));
  assert.deepEqual(errorLines(input), [
    'catalog.json: models[0].flags.hiden: unknown field; did you mean "hidden"?',
  ]);
});

Deno.test("an invalid provider name is quoted in the path", () => {
  const input = broken((c) => (c.providers = { ...c.providers, "my vendor": { kind: "openai" } }));
  assert.deepEqual(errorLines(input), [
    'catalog.json: providers["my vendor"]: invalid name: letters, digits, _ and -',
  ]);
});

Deno.test("header values are never echoed in errors (they may be credentials)", () => {
  const input = broken((c) => (c.providers = { up: { kind: "openai", headers: { auth: 12345 } } }));
  assert.deepEqual(errorLines(input), [
    "catalog.json: providers.up.headers.auth: Invalid input: expected string, received number",
  ]);
});

Deno.test("a config that is not an object says so without a field path", () => {
  assert.deepEqual(errorLines([]), [
    "catalog.json: Invalid input: expected object, received array",
  ]);
});

Deno.test("parseCatalogText reports malformed JSON with the file and the position", () => {
  assert.throws(
    () => parseCatalogText('{\n  "providers": {},\n  "models": [\n}', "conf/catalog.jsonc"),
    (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.equal(
        error.message,
        'conf/catalog.jsonc: not valid JSON: unexpected "}", expected a value at line 4 column 1',
      );
      return true;
    },
  );
});

Deno.test("parseCatalogText accepts comments and validates the result", () => {
  const text = `// gatehouse catalog
  {
    "$schema": "./catalog.schema.json",
    /* one provider */
    "providers": { "up": { "kind": "openai" } },
    "models": [{ "id": "m1", "provider": "up", "endpoint_types": ["openai"], }],
    "setup_defaults": { "flagship": "m1", "previous": "m1", "previous_mini": "m1" },
  }`;
  assert.equal(parseCatalogText(text, "catalog.jsonc").models[0]?.id, "m1");
  assert.throws(
    () => parseCatalogText(text.replace('"openai"]', '"gemini"]'), "catalog.jsonc"),
    /catalog\.jsonc: models\[0\]\.endpoint_types\[0\]: Invalid option/,
  );
});

Deno.test("deployments, fallbacks and fallback_on_context_overflow: defaults and field errors", () => {
  const parsed = parseCatalogConfig(
    broken((
      c,
    ) => (c.models[1] = {
      ...c.models[1],
      provider: undefined,
      deployments: [{ provider: "up" }],
    })),
    "catalog.json",
  );
  assert.deepEqual(parsed.models[1]?.deployments, [{ provider: "up", weight: 1 }]);
  assert.deepEqual(parsed.models[1]?.fallbacks, []);
  assert.equal(parsed.models[1]?.fallback_on_context_overflow, false);
  assert.equal(parsed.models[0]?.deployments, undefined);
  const input = broken((c) => {
    c.models[0] = {
      id: "m1",
      endpoint_types: ["openai"],
      deployments: [{ provider: "up", weight: 0 }, { provider: "up", weight: 1.5, region: "x" }],
    };
    c.models[1] = {
      ...c.models[1],
      deployments: [],
      fallbacks: ["bad id"],
      fallback_on_context_overflow: "yes",
    };
  });
  assert.deepEqual(errorLines(input), [
    "catalog.json: models[0].deployments[0].weight: Too small: expected number to be >0 (got 0)",
    "catalog.json: models[0].deployments[1].weight: Invalid input: expected int, received number (got 1.5)",
    "catalog.json: models[0].deployments[1].region: unknown field; allowed fields: provider, upstream_id, weight",
    "catalog.json: models[1].deployments: Too small: expected array to have >=1 items",
    'catalog.json: models[1].fallbacks[0]: letters, digits and . _ : / - (not first) (got "bad id")',
    'catalog.json: models[1].fallback_on_context_overflow: Invalid input: expected boolean, received string (got "yes")',
  ]);
});
