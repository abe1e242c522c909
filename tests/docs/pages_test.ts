/**
 * The docs pages render on the server with the shared layout, the configured addresses and the
 * live catalog; interpolated text is escaped.
 */
import assert from "node:assert/strict";
import { Catalog } from "../../catalog/catalog.ts";
import { defaultCatalog } from "../../catalog/default_catalog.ts";
import { parseCatalogConfig } from "../../catalog/parse_config.ts";
import { createDocsApp, type DocsOptions } from "../../docs/mod.ts";
import { NAV } from "../../docs/layout.ts";
import { makeHarness } from "../harness.ts";
import { squash } from "./docs_env.ts";

const API = "https://api.gatehouse.example";
const DOCS = "https://docs.gatehouse.example";
const ALT = "https://alt.gatehouse.example";

async function docsApp(overrides: Partial<DocsOptions> = {}) {
  const h = await makeHarness();
  const document = await (await h.request("/openapi.json")).json();
  await h.close();
  return createDocsApp({
    document: () => document,
    catalog: h.deps.catalog,
    publicBaseUrl: API,
    docsUrl: DOCS,
    altBaseUrl: ALT,
    altActive: false,
    ...overrides,
  });
}

const pages = NAV.flatMap((group) => group.items);

Deno.test("every page renders with the layout, its title, the addresses and no script", async () => {
  const app = await docsApp();
  for (const item of pages) {
    const response = await app.request(item.path);
    const text = squash(await response.text());
    assert.equal(response.status, 200, item.path);
    assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(response.headers.get("content-security-policy") ?? "", /default-src 'self'/);
    assert.match(text, /<header class="top">/, item.path);
    assert.match(text, /<nav aria-label="Documentation">/);
    assert.ok(text.includes(`<title>${item.label} · gatehouse docs</title>`), item.path);
    assert.ok(text.includes(`<h1>${item.label}</h1>`), item.path);
    assert.ok(text.includes(`href="${item.path}" aria-current="page"`), item.path);
    assert.ok(text.includes(`<code>${API}</code>`), `${item.path} shows the API root`);
    assert.ok(text.includes(`<code>${DOCS}</code>`), `${item.path} shows the docs address`);
    assert.ok(
      text.includes("reserved, not active yet"),
      `${item.path} shows the reserved alt root`,
    );
    for (const other of pages) assert.ok(text.includes(`href="${other.path}"`), other.path);
    if (item.path !== "/reference") assert.doesNotMatch(text, /<script/i, item.path);
  }
});

Deno.test("client pages carry the addresses where each client needs them", async () => {
  const app = await docsApp();
  const page = async (path: string) => squash(await (await app.request(path)).text());
  const claude = await page("/clients/claude-code");
  assert.ok(claude.includes(`&quot;ANTHROPIC_BASE_URL&quot;: &quot;${API}&quot;`));
  assert.ok(claude.includes(`curl -fsSL ${DOCS}/setup/claude-code.sh | sh -s -- --mode remapped`));
  assert.ok(claude.includes("ANTHROPIC_DEFAULT_OPUS_MODEL</code></td><td><code>gpt-5.5-large"));
  assert.match(claude, /CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1/);
  const codex = await page("/clients/codex");
  assert.ok(codex.includes(`base_url = &quot;${API}&quot;`));
  assert.ok(codex.includes("supports_websockets = false"));
  assert.ok(codex.includes("&quot;OPENAI_API_KEY&quot;"));
  for (const path of ["/clients/cursor", "/clients/continue", "/clients/zed", "/clients/cline"]) {
    assert.ok((await page(path)).includes(`${API}/v1`), path);
  }
  const openai = await page("/clients/openai-sdk");
  assert.ok(openai.includes(`baseURL: &quot;${API}/v1&quot;`));
  assert.ok(openai.includes(`base_url=&quot;${API}/v1&quot;`));
  const anthropic = await page("/clients/anthropic-sdk");
  assert.ok(anthropic.includes(`baseURL: &quot;${API}&quot;`));
  assert.ok(anthropic.includes(`base_url=&quot;${API}&quot;`));
  const start = await page("/");
  for (const client of ["claude-code", "codex", "continue", "zed"]) {
    assert.ok(start.includes(`${DOCS}/setup/${client}.sh`), client);
  }
});

Deno.test("the catalog page lists every listed model with limits, prices and markers", async () => {
  const h = await makeHarness();
  await h.close();
  const app = await docsApp();
  const text = squash(await (await app.request("/catalog")).text());
  const listed = h.deps.catalog.listed();
  const rows = [...text.matchAll(/<tr data-model="([^"]+)">([\s\S]*?)<\/tr>/g)];
  assert.deepEqual(rows.map((r) => r[1]), listed.map((m) => m.id));
  const row = (id: string) => rows.find((r) => r[1] === id)![2]!;
  assert.match(row("gpt-5.5-large"), /<code>gpt-5\.5<\/code>/);
  assert.match(row("gpt-5.5-large"), /400,000[\s\S]*128,000/);
  assert.match(row("gpt-5.5-large"), /\$2\.50[\s\S]*\$0\.25[\s\S]*\$20\.00/);
  assert.match(row("gpt-5.5-large"), /set-up default: flagship/);
  assert.match(row("gpt-5"), /set-up default: previous/);
  assert.match(row("gpt-5-mini"), /set-up default: mini/);
  assert.match(row("gpt-4o-audio-preview"), /special-purpose preview/);
  assert.match(row("gpt-4o-realtime-preview"), /special-purpose preview/);
  assert.doesNotMatch(row("gpt-5"), /special-purpose/);
  assert.match(
    row("gpt-image-1"),
    /image-generation, openai[\s\S]*text, image → image[\s\S]*\$0\.042/,
  );
  assert.match(row("claude-opus-5-5"), /text, image, pdf → text/);
  assert.match(text, /<code>claude-\*<\/code>/);
  assert.match(text, /demo mode/);
});

Deno.test("interpolated catalog text is escaped", async () => {
  const config = structuredClone(defaultCatalog);
  config.models[0]!.display_name = `<img src=x onerror="alert(1)">`;
  config.patterns![0]!.description = "</td><script>alert(2)</script>";
  const catalog = Catalog.demo(parseCatalogConfig(config, "test"));
  const app = await docsApp({ catalog });
  const text = squash(await (await app.request("/catalog")).text());
  assert.ok(text.includes("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"));
  assert.ok(text.includes("&lt;/td&gt;&lt;script&gt;alert(2)&lt;/script&gt;"));
  assert.doesNotMatch(text, /<script/);
  assert.doesNotMatch(await (await app.request("/clients/zed")).text(), /<img src=x/);
});

Deno.test("an active alternative root is shown as active and listed among the servers", async () => {
  const app = await docsApp({ altActive: true });
  const text = squash(await (await app.request("/")).text());
  assert.match(text, /alt\.gatehouse\.example<\/code><span class="badge ok">active/);
  const document = await (await app.request("/openapi.json")).json();
  assert.deepEqual(document.servers.map((s: { url: string }) => s.url), [API, ALT]);
  const inactive = await (await (await docsApp()).request("/openapi.json")).json();
  assert.deepEqual(inactive.servers.map((s: { url: string }) => s.url), [API]);
});

Deno.test("a docs host under a sub-path links under it and answers with or without it", async () => {
  const app = await docsApp({ docsUrl: "https://example.com/gatehouse/docs" });
  const text = squash(await (await app.request("/gatehouse/docs/catalog")).text());
  assert.ok(text.includes('href="/gatehouse/docs/clients/codex"'));
  assert.ok(text.includes('href="/gatehouse/docs/assets/docs.css"'));
  assert.equal((await app.request("/catalog")).status, 200);
  assert.equal((await app.request("/gatehouse/docs/v1/models")).status, 404);
});

Deno.test("scripts are served with the addresses; unknown paths get the 404 page", async () => {
  const app = await docsApp();
  const script = await (await app.request("/setup/gatehouse-setup.mjs")).text();
  assert.ok(script.includes(
    `const SERVED = ${
      JSON.stringify({ baseUrl: API, docsUrl: DOCS, altBaseUrl: ALT, altActive: false })
    };`,
  ));
  const sh = await app.request("/setup/codex.sh");
  assert.equal(sh.status, 200);
  assert.ok((await sh.text()).includes(`script_url='${DOCS}/setup/gatehouse-setup.mjs'`));
  const missing = await app.request("/setup/vim.sh");
  assert.equal(missing.status, 404);
  const page = await app.request("/no/such/page");
  assert.equal(page.status, 404);
  assert.match(squash(await page.text()), /Nothing is served at <code>\/no\/such\/page<\/code>/);
  assert.deepEqual(await (await app.request("/healthz")).json(), { status: "ok" });
});
