import assert from "node:assert/strict";
import { Catalog } from "./catalog.ts";
import { defaultCatalog } from "./default_catalog.ts";
import {
  configuredDeployments,
  demoDeployment,
  demoUpstreamId,
  forPatternId,
  missingFor,
  modelDeployments,
  patternDeployment,
  servingDeployments,
} from "./deployments.ts";
import { parseCatalogConfig } from "./parse_config.ts";
import { MOCK_PROVIDER, resolveProvider } from "./resolve_provider.ts";
import type { CatalogConfigInput } from "./schema.ts";

const input: CatalogConfigInput = {
  providers: {
    a: { kind: "openai", api_key_env: "A_KEY" },
    b: { kind: "openai_compatible", base_url: "http://b.example", api_key_env: "B_KEY" },
    open: { kind: "openai_compatible", base_url: "http://open.example" },
  },
  models: [
    { id: "one", provider: "a", upstream_id: "one-up", endpoint_types: ["openai"] },
    {
      id: "multi",
      upstream_id: "multi-up",
      endpoint_types: ["openai"],
      deployments: [
        { provider: "a", weight: 3 },
        { provider: "b", upstream_id: "multi-b" },
        { provider: "a", upstream_id: "multi-a2" },
      ],
    },
    { id: "plain", deployments: [{ provider: "b" }], endpoint_types: ["openai"] },
  ],
  patterns: [{ pattern: "x-*", provider: "open", endpoint_types: ["openai"] }],
  setup_defaults: { flagship: "one", previous: "one", previous_mini: "one" },
};
const config = parseCatalogConfig(input, "test");
const [one, multi, plain] = config.models;
assert.ok(one && multi && plain);

const providersWith = (env: Record<string, string>) => (name: string) =>
  resolveProvider(name, config.providers[name]!, (key) => env[key]);
const summary = (deployments: readonly { id: string; upstreamId: string; weight: number }[]) =>
  deployments.map(({ id, upstreamId, weight }) => [id, upstreamId, weight]);

Deno.test("the provider form is one deployment; the deployments form keeps config order", () => {
  assert.deepEqual(configuredDeployments(one), [
    { provider: "a", upstream_id: "one-up", weight: 1 },
  ]);
  assert.equal(configuredDeployments(multi).length, 3);
});

Deno.test("deployment ids are <model>@<provider>, with #<index> for a provider listed twice", () => {
  const providers = providersWith({ A_KEY: "ka", B_KEY: "kb" });
  assert.deepEqual(summary(modelDeployments(one, providers)), [["one@a", "one-up", 1]]);
  const deployments = modelDeployments(multi, providers);
  assert.deepEqual(summary(deployments), [
    ["multi@a#0", "multi-up", 3],
    ["multi@b", "multi-b", 1],
    ["multi@a#2", "multi-a2", 1],
  ]);
  assert.deepEqual(deployments.map((d) => d.provider.name), ["a", "b", "a"]);
  assert.equal(deployments[1]?.provider.apiKey, "kb");
  assert.ok(Object.isFrozen(deployments[0]));
  assert.deepEqual(summary(modelDeployments(plain, providers)), [["plain@b", "plain", 1]]);
});

Deno.test("routing gets only deployments with their credential, or all when none has one", () => {
  const only = (env: Record<string, string>) =>
    servingDeployments(modelDeployments(multi, providersWith(env))).map((d) => d.id);
  assert.deepEqual(only({ B_KEY: "kb" }), ["multi@b"]);
  assert.deepEqual(only({ A_KEY: "ka" }), ["multi@a#0", "multi@a#2"]);
  assert.deepEqual(only({}), ["multi@a#0", "multi@b", "multi@a#2"]);
  assert.ok(Object.isFrozen(servingDeployments([])));
});

Deno.test("missingFor names the unset variable; mock and keyless providers need none", () => {
  const providers = providersWith({ A_KEY: "ka" });
  assert.equal(missingFor(providers("a")), null);
  assert.equal(missingFor(providers("b")), "B_KEY");
  assert.equal(missingFor(providers("open")), null);
  assert.equal(missingFor(MOCK_PROVIDER), null);
});

Deno.test("a pattern has one deployment, bound per request to the id it forwards", () => {
  const pattern = config.patterns[0]!;
  const deployment = patternDeployment(pattern, providersWith({})("open"));
  assert.deepEqual(summary([deployment]), [["x-*@open", "x-*", 1]]);
  const bound = forPatternId(deployment, "x-large");
  assert.deepEqual(summary([bound]), [["x-*@open", "x-large", 1]]);
  assert.equal(bound.provider, deployment.provider);
  assert.ok(Object.isFrozen(bound));
});

Deno.test("demo deployments are <id>@mock and pass the first deployment's upstream id", () => {
  assert.deepEqual(summary([demoDeployment("multi", demoUpstreamId(multi))]), [
    ["multi@mock", "multi-up", 1],
  ]);
  assert.equal(demoUpstreamId(one), "one-up");
  assert.equal(demoUpstreamId(plain), "plain");
  assert.equal(demoDeployment("x-*", "x-*").provider, MOCK_PROVIDER);
});

// The catalog serving them: routing, listing and demo mode.
const envOf = (vars: Record<string, string>) => (name: string) => vars[name];
const defaultWithKeys = new Catalog(
  parseCatalogConfig(defaultCatalog, "default"),
  envOf({ OPENAI_API_KEY: "sk-openai", ANTHROPIC_API_KEY: "sk-ant" }),
);

const routed = parseCatalogConfig({
  providers: {
    a: { kind: "openai", api_key_env: "A_KEY" },
    b: { kind: "anthropic", api_key_env: "B_KEY" },
  },
  models: [
    {
      id: "big",
      upstream_id: "big-up",
      aliases: ["fam"],
      endpoint_types: ["openai"],
      context_window: 1000,
      deployments: [
        { provider: "a", weight: 3 },
        { provider: "b", upstream_id: "big-b" },
        { provider: "a", upstream_id: "big-a2" },
      ],
      fallbacks: ["fam-large", "small"],
      fallback_on_context_overflow: true,
    },
    { id: "large", aliases: ["fam-large"], provider: "b", endpoint_types: ["openai"] },
    { id: "small", provider: "a", endpoint_types: ["openai"], context_window: 8000 },
  ],
  patterns: [{ pattern: "b-*", provider: "b", endpoint_types: ["anthropic"] }],
  setup_defaults: { flagship: "big", previous: "big", previous_mini: "small" },
}, "test");
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

Deno.test("resolve() carries the deployments, bound to the first, and the fallbacks as written", () => {
  const model = new Catalog(routed, envOf({ A_KEY: "ka", B_KEY: "kb" })).resolve("fam");
  assert.ok(model);
  assert.deepEqual(ids(model.deployments), ["big@a#0", "big@b", "big@a#2"]);
  assert.deepEqual(model.deployments.map((d) => [d.upstreamId, d.weight]), [
    ["big-up", 3],
    ["big-b", 1],
    ["big-a2", 1],
  ]);
  assert.equal(model.deployment, model.deployments[0]);
  assert.equal(model.provider, model.deployment.provider);
  assert.equal(model.provider.apiKey, "ka");
  assert.equal(model.upstreamId, "big-up");
  assert.deepEqual(model.fallbacks, ["fam-large", "small"]);
  assert.equal(model.fallbackOnContextOverflow, true);
  const single = defaultWithKeys.resolve("claude-haiku");
  assert.ok(single);
  assert.deepEqual(ids(single.deployments), ["claude-haiku-4-5@anthropic"]);
  assert.equal(single.deployment.upstreamId, "claude-haiku-4-5-20251001");
  assert.deepEqual(single.fallbacks, []);
  assert.equal(single.fallbackOnContextOverflow, false);
});

Deno.test("a pattern-matched id has one deployment <pattern>@<provider> forwarding the id", () => {
  const model = defaultWithKeys.resolve("claude-3-opus");
  assert.ok(model);
  assert.deepEqual(ids(model.deployments), ["claude-*@anthropic"]);
  assert.equal(model.deployment.upstreamId, "claude-3-opus");
  assert.equal(model.deployment, model.deployments[0]);
  assert.equal(model.provider.name, "anthropic");
  assert.deepEqual(model.fallbacks, []);
  assert.equal(model.fallbackOnContextOverflow, false);
});

Deno.test("only deployments with their credential are routed to; a model needs one to be listed", () => {
  const onlyB = new Catalog(routed, envOf({ B_KEY: "kb" }));
  const big = onlyB.resolve("big");
  assert.ok(big);
  assert.deepEqual(ids(big.deployments), ["big@b"]);
  assert.equal(big.provider.name, "b");
  assert.equal(big.upstreamId, "big-b");
  assert.equal(onlyB.missingCredential(big), null);
  assert.equal(onlyB.providerOf(onlyB.lookup("big")!).name, "b");
  assert.deepEqual(onlyB.listed().map((m) => m.id), ["big", "large"]);
  const small = onlyB.resolve("small");
  assert.ok(small);
  assert.equal(onlyB.missingCredential(small), "A_KEY");

  const none = new Catalog(routed, envOf({}));
  const unserved = none.resolve("big");
  assert.ok(unserved);
  assert.deepEqual(ids(unserved.deployments), ["big@a#0", "big@b", "big@a#2"], "all kept");
  assert.equal(none.missingCredential(unserved), "A_KEY", "the bound deployment's variable");
  assert.equal(
    none.missingCredential({ ...unserved, provider: unserved.deployments[1]!.provider }),
    "B_KEY",
  );
  assert.deepEqual(none.listed(), []);
  assert.equal(none.hasAnyCredentials(), false);
});

Deno.test("deployments() lists what routing may pick per model, then per pattern", () => {
  const listing = (catalog: Catalog) =>
    catalog.deployments().map(({ model, pattern, deployment, listed }) => [
      model ?? pattern,
      deployment.id,
      deployment.upstreamId,
      listed,
    ]);
  assert.deepEqual(listing(new Catalog(routed, envOf({ A_KEY: "ka" }))), [
    ["big", "big@a#0", "big-up", true],
    ["big", "big@a#2", "big-a2", true],
    ["large", "large@b", "large", false],
    ["small", "small@a", "small", true],
    ["b-*", "b-*@b", "b-*", false],
  ]);
  const both = new Catalog(routed, envOf({ A_KEY: "ka", B_KEY: "kb" })).deployments();
  assert.equal(both.length, 6);
  const patternRow = both.at(-1);
  assert.deepEqual([patternRow?.model, patternRow?.pattern, patternRow?.listed], [
    null,
    "b-*",
    true,
  ]);
  const hidden = parseCatalogConfig({
    ...routed,
    models: routed.models.map((m) =>
      m.id === "small" ? { ...m, flags: { ...m.flags, hidden: true } } : m
    ),
  }, "test");
  const small = new Catalog(hidden, envOf({ A_KEY: "ka" })).deployments().find((d) =>
    d.model === "small"
  );
  assert.equal(small?.listed, false, "a hidden model is not listed");
});

Deno.test("demo mode: one <id>@mock deployment per model and pattern", () => {
  const catalog = Catalog.demo(routed);
  const big = catalog.resolve("big");
  assert.ok(big);
  assert.deepEqual(ids(big.deployments), ["big@mock"]);
  assert.equal(big.provider.kind, "mock");
  assert.equal(big.upstreamId, "big-up");
  assert.deepEqual(big.fallbacks, ["fam-large", "small"]);
  assert.deepEqual(catalog.deployments().map((d) => [d.deployment.id, d.listed]), [
    ["big@mock", true],
    ["large@mock", true],
    ["small@mock", true],
    ["b-*@mock", true],
  ]);
  assert.deepEqual(ids(catalog.resolve("b-x")?.deployments ?? []), ["b-*@mock"]);
  assert.equal(catalog.resolve("b-x")?.upstreamId, "b-x");
});
