import assert from "node:assert/strict";
import { Catalog } from "./catalog.ts";
import { CatalogError } from "./catalog_error.ts";
import { defaultCatalog } from "./default_catalog.ts";
import { parseCatalogConfig } from "./parse_config.ts";
import type { CatalogConfig } from "./schema.ts";

const config = parseCatalogConfig(defaultCatalog, "default");
const bothKeys = { OPENAI_API_KEY: "sk-openai", ANTHROPIC_API_KEY: "sk-ant" };
const envOf = (vars: Record<string, string>) => (name: string) => vars[name];
const catalogWith = (vars: Record<string, string>) => new Catalog(config, envOf(vars));

Deno.test("a concrete id resolves to its entry and provider", () => {
  const model = catalogWith(bothKeys).resolve("gpt-5.5-medium");
  assert.ok(model);
  assert.equal(model.requested, "gpt-5.5-medium");
  assert.equal(model.id, "gpt-5.5-medium");
  assert.equal(model.upstreamId, "gpt-5.5-medium");
  assert.equal(model.provider.name, "openai");
  assert.equal(model.provider.apiKey, "sk-openai");
  assert.equal(model.openaiWire, "responses");
  assert.deepEqual(model.endpointTypes, ["openai", "anthropic"]);
  assert.equal(model.contextWindow, 400_000);
  assert.equal(model.entry?.id, "gpt-5.5-medium");
  assert.equal(model.pattern, null);
});

Deno.test("a family's short id resolves to its default tier", () => {
  const catalog = catalogWith(bothKeys);
  const model = catalog.resolve("gpt-5.5");
  assert.equal(model?.requested, "gpt-5.5");
  assert.equal(model?.id, "gpt-5.5-large");
  assert.equal(model?.upstreamId, "gpt-5.5-large");
  assert.equal(catalog.resolve("claude-opus")?.id, "claude-opus-5-5");
  assert.equal(catalog.lookup("claude-haiku")?.id, "claude-haiku-4-5");
});

Deno.test("upstream_id is what goes upstream; the public id stays", () => {
  const model = catalogWith(bothKeys).resolve("claude-haiku");
  assert.equal(model?.id, "claude-haiku-4-5");
  assert.equal(model?.upstreamId, "claude-haiku-4-5-20251001");
  assert.equal(model?.provider.kind, "anthropic");
});

Deno.test("a pattern forwards an unknown id unchanged; ids and aliases win over it", () => {
  const catalog = catalogWith(bothKeys);
  const native = catalog.resolve("claude-opus-4-1-20250805");
  assert.ok(native);
  assert.equal(native.id, "claude-opus-4-1-20250805");
  assert.equal(native.upstreamId, "claude-opus-4-1-20250805");
  assert.equal(native.provider.name, "anthropic");
  assert.equal(native.entry, null);
  assert.equal(native.pattern?.pattern, "claude-*");
  assert.deepEqual(native.endpointTypes, ["anthropic", "openai"]);
  assert.equal(catalog.resolve("claude-opus-5-5")?.pattern, null, "concrete id wins");
  assert.equal(catalog.resolve("claude-sonnet")?.id, "claude-sonnet-5", "alias wins");
  assert.equal(catalog.resolve("gpt-7"), null);
  assert.equal(catalog.resolve(""), null);
  assert.equal(catalog.resolve("GPT-5"), null, "ids are case-sensitive");
});

Deno.test("the longest matching pattern prefix wins, whatever the config order", () => {
  const withPatterns: CatalogConfig = parseCatalogConfig({
    ...defaultCatalog,
    providers: {
      ...defaultCatalog.providers,
      bedrock: { kind: "openai_compatible", base_url: "https://bedrock.example" },
    },
    patterns: [
      { pattern: "c*", provider: "openai", endpoint_types: ["openai"] },
      { pattern: "claude-*", provider: "anthropic", endpoint_types: ["anthropic"] },
      { pattern: "claude-bedrock-*", provider: "bedrock", endpoint_types: ["openai"] },
    ],
  }, "test");
  const catalog = new Catalog(withPatterns, envOf(bothKeys));
  assert.equal(catalog.resolve("claude-bedrock-x")?.provider.name, "bedrock");
  assert.equal(catalog.resolve("claude-x")?.provider.name, "anthropic");
  assert.equal(catalog.resolve("codex-x")?.provider.name, "openai");
  assert.equal(catalog.resolve("claude-bedrock-x")?.upstreamId, "claude-bedrock-x");
});

Deno.test("only models whose provider has its credential are listed", () => {
  const ids = (catalog: Catalog) => catalog.listed().map((m) => m.id);
  const openaiOnly = catalogWith({ OPENAI_API_KEY: "sk" });
  assert.ok(ids(openaiOnly).includes("gpt-5.5-large"));
  assert.ok(!ids(openaiOnly).some((id) => id.startsWith("claude")));
  assert.deepEqual(openaiOnly.patterns(), [], "a pattern of an unusable provider is not shown");
  assert.ok(openaiOnly.hasAnyCredentials());
  const anthropicOnly = catalogWith({ ANTHROPIC_API_KEY: "sk" });
  assert.deepEqual(ids(anthropicOnly), ["claude-opus-5-5", "claude-sonnet-5", "claude-haiku-4-5"]);
  assert.deepEqual(anthropicOnly.patterns().map((p) => p.pattern), ["claude-*"]);
  const none = catalogWith({});
  assert.deepEqual(ids(none), []);
  assert.equal(none.hasAnyCredentials(), false);
  assert.equal(catalogWith(bothKeys).listed().length, config.models.length);
});

Deno.test("unlisted models still resolve; missingCredential names the variable to set", () => {
  const catalog = catalogWith({ OPENAI_API_KEY: "sk" });
  const claude = catalog.resolve("claude-sonnet-5");
  assert.ok(claude);
  assert.equal(catalog.missingCredential(claude), "ANTHROPIC_API_KEY");
  const pattern = catalog.resolve("claude-3-opus");
  assert.ok(pattern);
  assert.equal(catalog.missingCredential(pattern), "ANTHROPIC_API_KEY");
  const gpt = catalog.resolve("gpt-5");
  assert.ok(gpt);
  assert.equal(catalog.missingCredential(gpt), null);
});

Deno.test("hidden models are served but not listed; a provider without api_key_env needs none", () => {
  const local = parseCatalogConfig({
    providers: { local: { kind: "openai_compatible", base_url: "http://127.0.0.1:11434/v1" } },
    models: [
      { id: "llama", provider: "local", endpoint_types: ["openai"] },
      { id: "secret", provider: "local", endpoint_types: ["openai"], flags: { hidden: true } },
    ],
    setup_defaults: { flagship: "llama", previous: "llama", previous_mini: "llama" },
  }, "test");
  const catalog = new Catalog(local, envOf({}));
  assert.deepEqual(catalog.listed().map((m) => m.id), ["llama"]);
  const hidden = catalog.resolve("secret");
  assert.ok(hidden);
  assert.equal(catalog.missingCredential(hidden), null);
  assert.equal(hidden.provider.baseUrl, "http://127.0.0.1:11434");
  assert.equal(catalog.hasAnyCredentials(), true);
  assert.deepEqual(catalog.models().map((m) => m.id), ["llama", "secret"]);
});

Deno.test("GATEHOUSE_*_URL move the providers; OPENAI_BASE_URL / ANTHROPIC_BASE_URL change nothing", () => {
  const plain = catalogWith(bothKeys);
  const sdkVars = catalogWith({
    ...bothKeys,
    OPENAI_BASE_URL: "http://127.0.0.1:4000/v1",
    ANTHROPIC_BASE_URL: "http://127.0.0.1:4000",
  });
  assert.deepEqual(
    sdkVars.providers().map((p) => [p.name, p.baseUrl]),
    plain.providers().map((p) => [p.name, p.baseUrl]),
  );
  assert.deepEqual(plain.providers().map((p) => p.baseUrl), [
    "https://api.openai.com",
    "https://api.anthropic.com",
  ]);
  const moved = catalogWith({
    ...bothKeys,
    GATEHOUSE_OPENAI_URL: "http://127.0.0.1:5001/v1",
    GATEHOUSE_ANTHROPIC_URL: "http://127.0.0.1:5002/",
  });
  assert.equal(moved.resolve("gpt-5")?.provider.baseUrl, "http://127.0.0.1:5001");
  assert.equal(moved.resolve("claude-x")?.provider.baseUrl, "http://127.0.0.1:5002");
});

Deno.test("demo mode serves every model and pattern from the mock provider without keys", () => {
  for (const catalog of [Catalog.demo(config), new Catalog(config, envOf({}), { demo: true })]) {
    assert.equal(catalog.demo, true);
    assert.equal(catalog.listed().length, config.models.length);
    assert.deepEqual(catalog.patterns().map((p) => p.pattern), ["claude-*"]);
    assert.deepEqual(catalog.providers().map((p) => p.name), ["mock"]);
    assert.ok(catalog.hasAnyCredentials());
    for (const id of ["gpt-5.5", "claude-haiku-4-5", "claude-native-id", "gpt-image-1"]) {
      const model = catalog.resolve(id);
      assert.ok(model, id);
      assert.equal(model.provider.kind, "mock");
      assert.equal(catalog.missingCredential(model), null);
    }
  }
});

Deno.test("demo mode ignores a malformed override URL; normal mode rejects it", () => {
  const env = envOf({ GATEHOUSE_OPENAI_URL: "not a url" });
  assert.ok(new Catalog(config, env, { demo: true }).resolve("gpt-5"));
  assert.throws(() => new Catalog(config, env), CatalogError);
});

Deno.test("setupDefaults and the catalog's entries cannot be changed through the catalog", () => {
  const catalog = catalogWith(bothKeys);
  assert.deepEqual(catalog.setupDefaults, {
    flagship: "gpt-5.5-large",
    previous: "gpt-5",
    previous_mini: "gpt-5-mini",
  });
  const entry = catalog.lookup("gpt-5");
  assert.ok(entry && Object.isFrozen(entry) && Object.isFrozen(entry.aliases));
  assert.ok(!Object.isFrozen(config.models[0]), "the caller's config is not frozen");
});

Deno.test("the constructor refuses a config with cross-field problems, naming the source", () => {
  const clash: CatalogConfig = {
    ...config,
    models: [...config.models, { ...config.models[1]!, aliases: [] }],
  };
  assert.throws(() => new Catalog(clash, envOf({}), { source: "my.json" }), (error: unknown) => {
    assert.ok(error instanceof CatalogError);
    assert.match(error.message, /^my\.json: models\[\d+\]\.id: duplicate id "gpt-5.5-medium"/);
    return true;
  });
});
