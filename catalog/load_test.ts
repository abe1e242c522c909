import assert from "node:assert/strict";
import { CatalogError } from "./catalog_error.ts";
import { defaultCatalog } from "./default_catalog.ts";
import { loadCatalog } from "./load.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

async function withFile(text: string, run: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_catalog_" });
  try {
    const path = `${dir}/catalog.jsonc`;
    await Deno.writeTextFile(path, text);
    await run(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const smallFile = `{
  "$schema": "./catalog.schema.json",
  // a local server, no credential
  "providers": { "local": { "kind": "openai_compatible", "base_url": "http://127.0.0.1:8000/v1" } },
  "models": [
    { "id": "qwen-coder", "provider": "local", "endpoint_types": ["openai", "anthropic"], "aliases": ["qwen"] },
  ],
  "setup_defaults": { "flagship": "qwen", "previous": "qwen", "previous_mini": "qwen" },
}`;

Deno.test("loadCatalog without a path serves the built-in default", async () => {
  const catalog = await loadCatalog({ env: envOf({ OPENAI_API_KEY: "sk" }) });
  assert.equal(catalog.models().length, defaultCatalog.models.length);
  assert.equal(catalog.resolve("gpt-5.5")?.id, "gpt-5.5-large");
  assert.equal(catalog.demo, false);
});

Deno.test("loadCatalog reads a JSONC file given by path or by GATEHOUSE_CONFIG", async () => {
  await withFile(smallFile, async (path) => {
    for (
      const catalog of [
        await loadCatalog({ path, env: envOf({}) }),
        await loadCatalog({ env: envOf({ GATEHOUSE_CONFIG: path }) }),
      ]
    ) {
      assert.deepEqual(catalog.listed().map((m) => m.id), ["qwen-coder"]);
      assert.equal(catalog.resolve("qwen")?.provider.baseUrl, "http://127.0.0.1:8000");
    }
  });
});

Deno.test("an explicit path wins over GATEHOUSE_CONFIG; an empty GATEHOUSE_CONFIG is unset", async () => {
  await withFile(smallFile, async (path) => {
    const env = envOf({ GATEHOUSE_CONFIG: "/nonexistent/catalog.json" });
    assert.ok((await loadCatalog({ path, env })).resolve("qwen"));
    const fallback = await loadCatalog({ env: envOf({ GATEHOUSE_CONFIG: "" }) });
    assert.ok(fallback.resolve("gpt-5"));
  });
});

Deno.test("loadCatalog in demo mode serves every model from the mock provider", async () => {
  const catalog = await loadCatalog({ demo: true, env: envOf({}) });
  assert.equal(catalog.demo, true);
  assert.equal(catalog.resolve("claude-opus")?.provider.kind, "mock");
  assert.equal(catalog.listed().length, defaultCatalog.models.length);
});

Deno.test("a bad file stops the start with the file, the field path and the reason", async () => {
  const bad = smallFile.replace('["openai", "anthropic"]', '["openai", "messages"]');
  await withFile(bad, async (path) => {
    await assert.rejects(loadCatalog({ path, env: envOf({}) }), (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.equal(
        error.message,
        `${path}: models[0].endpoint_types[1]: Invalid option: expected one of ` +
          '"openai"|"anthropic"|"image-generation" (got "messages")',
      );
      return true;
    });
  });
  const dangling = smallFile.replace('"flagship": "qwen"', '"flagship": "qwen-max"');
  await withFile(dangling, async (path) => {
    await assert.rejects(
      loadCatalog({ path, env: envOf({}) }),
      new RegExp(`^CatalogError: ${path}: setup_defaults\\.flagship: "qwen-max" is not a model`),
    );
  });
});

Deno.test("a missing file says which file and what to do", async () => {
  await assert.rejects(
    loadCatalog({ path: "/nonexistent/catalog.json", env: envOf({}) }),
    (error: unknown) => {
      assert.ok(error instanceof CatalogError);
      assert.equal(
        error.message,
        "/nonexistent/catalog.json: file not found (set GATEHOUSE_CONFIG to an existing " +
          "catalog file, or unset it for the built-in default)",
      );
      return true;
    },
  );
});

Deno.test("a malformed GATEHOUSE_OPENAI_URL stops the start", async () => {
  await assert.rejects(
    loadCatalog({ env: envOf({ GATEHOUSE_OPENAI_URL: "127.0.0.1:9000" }) }),
    /environment: GATEHOUSE_OPENAI_URL: "127.0.0.1:9000" is not an http\(s\) URL/,
  );
});
