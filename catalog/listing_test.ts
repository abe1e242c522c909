import assert from "node:assert/strict";
import { GatewayError } from "../core/errors.ts";
import { Catalog } from "./catalog.ts";
import { defaultCatalog } from "./default_catalog.ts";
import {
  anthropicModelList,
  anthropicModelObject,
  modelListShape,
  openaiModelList,
  openaiModelObject,
} from "./listing.ts";
import {
  AnthropicModelList,
  AnthropicModelObject,
  OpenAIModelList,
  OpenAIModelObject,
} from "./listing_schema.ts";
import { parseCatalogConfig } from "./parse_config.ts";
import type { CatalogConfigInput } from "./schema.ts";

const config = parseCatalogConfig(defaultCatalog, "default");
const envOf = (vars: Record<string, string>) => (name: string) => vars[name];
const live = new Catalog(config, envOf({ OPENAI_API_KEY: "sk-o", ANTHROPIC_API_KEY: "sk-a" }));

/** `count` models, newest first (a, b, c, ...; `c` also answers to `cee`), for paging. */
function pagingCatalog(count = 5): Catalog {
  const input: CatalogConfigInput = {
    providers: { mock: { kind: "mock" } },
    models: Array.from({ length: count }, (_, i) => ({
      id: String.fromCharCode(97 + (i % 26)) + (i >= 26 ? String(i) : ""),
      provider: "mock",
      endpoint_types: ["anthropic" as const],
      created: 1_000_000 - i,
      aliases: i === 2 ? ["cee"] : [],
    })),
    setup_defaults: { flagship: "a", previous: "a", previous_mini: "a" },
  };
  return new Catalog(parseCatalogConfig(input, "paging"), envOf({}));
}

Deno.test("the OpenAI list carries catalog fields, aliases, patterns and set-up defaults", () => {
  const list = OpenAIModelList.parse(openaiModelList(live));
  assert.equal(list.object, "list");
  assert.equal(list.data.length, config.models.length);
  const large = list.data.find((m) => m.id === "gpt-5.5-large");
  assert.deepEqual(large, {
    id: "gpt-5.5-large",
    object: "model",
    created: 1_774_396_800,
    owned_by: "openai",
    display_name: "GPT-5.5 Large",
    supported_endpoint_types: ["openai", "anthropic"],
    context_window: 400_000,
    max_output_tokens: 128_000,
    input_modalities: ["text", "image"],
    output_modalities: ["text"],
    pricing: { input: 2.5, cached_input: 0.25, output: 20 },
    aliases: ["gpt-5.5"],
    special_purpose: false,
  });
  assert.equal(list.data.find((m) => m.id === "claude-opus-5-5")?.owned_by, "anthropic");
  assert.equal(list.data.find((m) => m.id === "gpt-image-1")?.context_window, null);
  assert.equal(list.data.find((m) => m.id === "gpt-4o-audio-preview")?.special_purpose, true);
  assert.deepEqual(list.patterns, [{
    pattern: "claude-*",
    owned_by: "anthropic",
    supported_endpoint_types: ["anthropic", "openai"],
    description: config.patterns[0]?.description ?? null,
    pricing: {},
  }]);
  assert.ok(!list.data.some((m) => m.id.includes("*")), "patterns are never listed as ids");
  assert.deepEqual(list.setup_defaults, config.setup_defaults);
});

Deno.test("owned_by is gatehouse-mock in demo mode and the provider name for compatible ones", () => {
  const demo = openaiModelList(Catalog.demo(config));
  assert.ok(demo.data.every((m) => m.owned_by === "gatehouse-mock"));
  assert.ok(demo.patterns.every((p) => p.owned_by === "gatehouse-mock"));
  const compatible = new Catalog(
    parseCatalogConfig({
      providers: { deepseek: { kind: "openai_compatible", base_url: "https://api.deepseek.com" } },
      models: [{ id: "deepseek-chat", provider: "deepseek", endpoint_types: ["openai"] }],
      setup_defaults: {
        flagship: "deepseek-chat",
        previous: "deepseek-chat",
        previous_mini: "deepseek-chat",
      },
    }, "test"),
    envOf({}),
  );
  assert.equal(openaiModelList(compatible).data[0]?.owned_by, "deepseek");
});

Deno.test("the OpenAI list leaves out models without credentials and hidden models", () => {
  const openaiOnly = new Catalog(config, envOf({ OPENAI_API_KEY: "sk" }));
  const list = openaiModelList(openaiOnly);
  assert.ok(!list.data.some((m) => m.owned_by === "anthropic"));
  assert.deepEqual(list.patterns, []);
  assert.equal(openaiModelObject(openaiOnly, "claude-opus"), null);
  const hidden = new Catalog(
    {
      ...config,
      models: config.models.map((m) => ({ ...m, flags: { ...m.flags, hidden: m.id === "gpt-6" } })),
    },
    envOf({ OPENAI_API_KEY: "sk" }),
  );
  assert.ok(!openaiModelList(hidden).data.some((m) => m.id === "gpt-6"));
  assert.ok(!anthropicModelList(hidden, { limit: 1000 }).data.some((m) => m.id === "gpt-6"));
  assert.equal(openaiModelObject(hidden, "gpt-6"), null, "hidden: served, but not shown");
  assert.ok(hidden.resolve("gpt-6"));
});

Deno.test("a single model: aliases give the canonical entry, unlisted ids give null", () => {
  const byAlias = OpenAIModelObject.parse(openaiModelObject(live, "gpt-5.5"));
  assert.equal(byAlias.id, "gpt-5.5-large");
  assert.deepEqual(openaiModelObject(live, "gpt-5.5-large"), byAlias);
  assert.equal(openaiModelObject(live, "claude-3-opus-pattern-match"), null);
  assert.equal(openaiModelObject(live, "nope"), null);
  const anthropic = AnthropicModelObject.parse(anthropicModelObject(live, "claude-opus"));
  assert.deepEqual(anthropic, {
    type: "model",
    id: "claude-opus-5-5",
    display_name: "Claude Opus 5.5",
    created_at: "2026-05-19T00:00:00Z",
  });
  assert.equal(anthropicModelObject(live, "claude-native-id"), null);
});

Deno.test("the Anthropic list is newest first with RFC 3339 times", () => {
  const list = AnthropicModelList.parse(anthropicModelList(live, { limit: 1000 }));
  assert.equal(list.data.length, config.models.length);
  assert.equal(list.data[0]?.id, "gpt-6");
  assert.equal(list.has_more, false);
  assert.equal(list.first_id, "gpt-6");
  assert.equal(list.last_id, list.data.at(-1)?.id);
  const times = list.data.map((m) => Date.parse(m.created_at));
  assert.deepEqual(times, [...times].sort((a, b) => b - a));
  for (const model of list.data) {
    assert.match(model.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  }
  assert.deepEqual(Object.keys(list.data[0] ?? {}), ["type", "id", "display_name", "created_at"]);
});

Deno.test("Anthropic paging: limit, after_id and before_id", () => {
  const catalog = pagingCatalog();
  const page = (query: Parameters<typeof anthropicModelList>[1]) => {
    const list = anthropicModelList(catalog, query);
    return [list.data.map((m) => m.id).join(","), list.has_more, list.first_id, list.last_id];
  };
  assert.deepEqual(page({ limit: 2 }), ["a,b", true, "a", "b"]);
  assert.deepEqual(page({ limit: 2, afterId: "b" }), ["c,d", true, "c", "d"]);
  assert.deepEqual(page({ limit: 2, afterId: "d" }), ["e", false, "e", "e"]);
  assert.deepEqual(page({ limit: 2, afterId: "e" }), ["", false, null, null]);
  assert.deepEqual(page({ limit: 2, beforeId: "e" }), ["c,d", true, "c", "d"]);
  assert.deepEqual(page({ limit: 2, beforeId: "c" }), ["a,b", false, "a", "b"]);
  assert.deepEqual(page({ limit: 2, beforeId: "a" }), ["", false, null, null]);
  assert.deepEqual(page({ limit: 1, afterId: "cee" }), ["d", true, "d", "d"]);
  assert.deepEqual(page({}), ["a,b,c,d,e", false, "a", "e"]);
});

Deno.test("Anthropic paging defaults to 20 items", () => {
  const list = anthropicModelList(pagingCatalog(25));
  assert.equal(list.data.length, 20);
  assert.equal(list.has_more, true);
});

Deno.test("Anthropic paging rejects bad limits, unknown cursors and both cursors", () => {
  const catalog = pagingCatalog();
  const rejects = (query: Parameters<typeof anthropicModelList>[1], param: string) =>
    assert.throws(() => anthropicModelList(catalog, query), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.status, 400);
      assert.equal(error.param, param);
      return true;
    });
  rejects({ limit: 0 }, "limit");
  rejects({ limit: 1001 }, "limit");
  rejects({ limit: 1.5 }, "limit");
  rejects({ afterId: "zzz" }, "after_id");
  rejects({ beforeId: "zzz" }, "before_id");
  rejects({ afterId: "a", beforeId: "c" }, "before_id");
});

Deno.test("the anthropic-version header picks the Anthropic shape", () => {
  assert.equal(modelListShape(new Headers({ "anthropic-version": "2023-06-01" })), "anthropic");
  assert.equal(modelListShape(new Headers({ authorization: "Bearer k" })), "openai");
});
