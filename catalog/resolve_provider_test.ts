import assert from "node:assert/strict";
import { CatalogError } from "./catalog_error.ts";
import { MOCK_PROVIDER, normalizeBaseUrl, resolveProvider } from "./resolve_provider.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("normalizeBaseUrl strips trailing slashes and one trailing /v1, keeping the root", () => {
  assert.equal(normalizeBaseUrl("http://127.0.0.1:8080/v1"), "http://127.0.0.1:8080");
  assert.equal(normalizeBaseUrl("http://127.0.0.1:8080/v1/"), "http://127.0.0.1:8080");
  assert.equal(normalizeBaseUrl("http://127.0.0.1:8080/"), "http://127.0.0.1:8080");
  assert.equal(normalizeBaseUrl("https://api.groq.com/openai/v1"), "https://api.groq.com/openai");
  assert.equal(normalizeBaseUrl("https://h/v10"), "https://h/v10");
  assert.equal(normalizeBaseUrl("https://h/api/v1x"), "https://h/api/v1x");
});

Deno.test("vendor kinds default to the vendor roots; credentials come from api_key_env", () => {
  const openai = resolveProvider(
    "openai",
    { kind: "openai", api_key_env: "OPENAI_API_KEY" },
    envOf({
      OPENAI_API_KEY: "sk-test",
    }),
  );
  assert.equal(openai.baseUrl, "https://api.openai.com");
  assert.equal(openai.apiKey, "sk-test");
  assert.equal(openai.apiKeyEnv, "OPENAI_API_KEY");
  const anthropic = resolveProvider(
    "claude",
    { kind: "anthropic", api_key_env: "A_KEY" },
    envOf({
      A_KEY: "  ",
    }),
  );
  assert.equal(anthropic.baseUrl, "https://api.anthropic.com");
  assert.equal(anthropic.apiKey, undefined, "a blank variable counts as unset");
});

Deno.test("GATEHOUSE_OPENAI_URL / GATEHOUSE_ANTHROPIC_URL override every provider of that kind", () => {
  const env = envOf({
    GATEHOUSE_OPENAI_URL: "http://127.0.0.1:9001/v1/",
    GATEHOUSE_ANTHROPIC_URL: "http://127.0.0.1:9002/",
  });
  assert.equal(
    resolveProvider("o", { kind: "openai", base_url: "https://proxy.example/v1" }, env).baseUrl,
    "http://127.0.0.1:9001",
  );
  assert.equal(resolveProvider("a", { kind: "anthropic" }, env).baseUrl, "http://127.0.0.1:9002");
  assert.equal(
    resolveProvider("c", { kind: "openai_compatible", base_url: "https://api.x.ai/v1" }, env)
      .baseUrl,
    "https://api.x.ai",
    "openai_compatible providers keep their own base_url",
  );
});

Deno.test("OPENAI_BASE_URL and ANTHROPIC_BASE_URL are never read", () => {
  const read: string[] = [];
  const env = (name: string) => {
    read.push(name);
    return {
      OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:2",
    }[name];
  };
  assert.equal(resolveProvider("o", { kind: "openai" }, env).baseUrl, "https://api.openai.com");
  assert.equal(
    resolveProvider("a", { kind: "anthropic" }, env).baseUrl,
    "https://api.anthropic.com",
  );
  assert.ok(!read.includes("OPENAI_BASE_URL") && !read.includes("ANTHROPIC_BASE_URL"));
});

Deno.test("a malformed override URL is a CatalogError naming the variable", () => {
  for (const value of ["localhost:8080", "ftp://h", "http://h/?x=1"]) {
    assert.throws(
      () => resolveProvider("o", { kind: "openai" }, envOf({ GATEHOUSE_OPENAI_URL: value })),
      (error: unknown) => {
        assert.ok(error instanceof CatalogError);
        assert.equal(
          error.message,
          `environment: GATEHOUSE_OPENAI_URL: ${JSON.stringify(value)} is not an http(s) URL; ` +
            "set it to the upstream root, e.g. http://127.0.0.1:8080",
        );
        return true;
      },
    );
  }
});

Deno.test("the key and header values never reach JSON or console output", () => {
  const provider = resolveProvider(
    "o",
    { kind: "openai", api_key_env: "K", headers: { "x-org": "org-secret" } },
    envOf({ K: "sk-very-secret" }),
  );
  const json = JSON.stringify({ provider });
  const shown = Deno.inspect(provider);
  for (const text of [json, shown]) {
    assert.ok(!text.includes("sk-very-secret"), text);
    assert.ok(!text.includes("org-secret"), text);
    assert.ok(text.includes("[redacted]"), text);
  }
  assert.equal(provider.apiKey, "sk-very-secret");
  assert.equal(provider.headers["x-org"], "org-secret");
  assert.ok(Object.isFrozen(provider) && Object.isFrozen(provider.headers));
});

Deno.test("the mock provider needs no URL and no key", () => {
  assert.equal(MOCK_PROVIDER.name, "mock");
  assert.equal(MOCK_PROVIDER.kind, "mock");
  assert.equal(MOCK_PROVIDER.baseUrl, "");
  assert.equal(MOCK_PROVIDER.apiKeyEnv, undefined);
});
