import assert from "node:assert/strict";
import { defaultCatalog } from "./default_catalog.ts";
import { parseCatalogConfig } from "./parse_config.ts";

const config = parseCatalogConfig(defaultCatalog, "built-in default catalog");
const model = (id: string) => {
  const entry = config.models.find((m) => m.id === id);
  assert.ok(entry, `${id} is in the default catalog`);
  return entry;
};

Deno.test("the default catalog passes validation with its two vendor providers", () => {
  assert.deepEqual(config.providers, {
    openai: { kind: "openai", base_url: "https://api.openai.com", api_key_env: "OPENAI_API_KEY" },
    anthropic: {
      kind: "anthropic",
      base_url: "https://api.anthropic.com",
      api_key_env: "ANTHROPIC_API_KEY",
    },
  });
  assert.deepEqual(config.setup_defaults, {
    flagship: "gpt-5.5-large",
    previous: "gpt-5",
    previous_mini: "gpt-5-mini",
  });
});

Deno.test("the gpt-5.5 family has three tiers on both protocols, the short id on the large one", () => {
  for (const id of ["gpt-5.5-large", "gpt-5.5-medium", "gpt-5.5-small"]) {
    assert.deepEqual(model(id).endpoint_types, ["openai", "anthropic"]);
    assert.equal(model(id).openai_wire, "responses");
  }
  assert.deepEqual(model("gpt-5.5-large").aliases, ["gpt-5.5"]);
  const price = (id: string) => model(id).pricing.output ?? 0;
  assert.ok(price("gpt-5.5-large") > price("gpt-5.5-medium"));
  assert.ok(price("gpt-5.5-medium") > price("gpt-5.5-small"));
});

Deno.test("gpt-6 has the documented limits and modalities", () => {
  const gpt6 = model("gpt-6");
  assert.equal(gpt6.context_window, 1_050_000);
  assert.equal(gpt6.max_output_tokens, 128_000);
  assert.deepEqual(gpt6.input_modalities, ["text", "image"]);
  assert.deepEqual(gpt6.output_modalities, ["text"]);
  assert.ok(!Object.values(config.setup_defaults).includes("gpt-6"));
});

Deno.test("the previous family uses the chat wire upstream", () => {
  assert.equal(model("gpt-5").openai_wire, "chat");
  assert.equal(model("gpt-5-mini").openai_wire, "chat");
});

Deno.test("audio and realtime previews are special-purpose with audio modalities", () => {
  for (const id of ["gpt-4o-audio-preview", "gpt-4o-realtime-preview"]) {
    assert.equal(model(id).flags.special_purpose, true);
    assert.ok(model(id).input_modalities.includes("audio"));
    assert.ok(model(id).output_modalities.includes("audio"));
  }
  const special = config.models.filter((m) => m.flags.special_purpose).map((m) => m.id);
  assert.deepEqual(special, ["gpt-4o-audio-preview", "gpt-4o-realtime-preview"]);
});

Deno.test("gpt-image-1 generates images and is priced per image", () => {
  const image = model("gpt-image-1");
  assert.deepEqual(image.endpoint_types, ["image-generation", "openai"]);
  assert.deepEqual(image.output_modalities, ["image"]);
  assert.ok((image.pricing.per_image ?? 0) > 0);
});

Deno.test("the Claude family answers both protocols with short aliases and a claude-* pattern", () => {
  assert.deepEqual(model("claude-opus-5-5").aliases, ["claude-opus"]);
  assert.deepEqual(model("claude-sonnet-5").aliases, ["claude-sonnet"]);
  assert.deepEqual(model("claude-haiku-4-5").aliases, ["claude-haiku"]);
  assert.equal(model("claude-haiku-4-5").upstream_id, "claude-haiku-4-5-20251001");
  for (const id of ["claude-opus-5-5", "claude-sonnet-5", "claude-haiku-4-5"]) {
    assert.deepEqual(model(id).endpoint_types, ["anthropic", "openai"]);
    assert.equal(model(id).provider, "anthropic");
  }
  assert.deepEqual(config.patterns.map((p) => [p.pattern, p.provider]), [[
    "claude-*",
    "anthropic",
  ]]);
});

Deno.test("every model has a fixed creation time and a display name", () => {
  for (const entry of config.models) {
    assert.ok(entry.created > 1_600_000_000, entry.id);
    assert.ok(entry.display_name, entry.id);
  }
});
