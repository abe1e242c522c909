/**
 * The docs listener's configuration and start-up, as main.ts uses them.
 */
import assert from "node:assert/strict";
import { readDocsConfig, startDocsServer } from "../../docs/mod.ts";
import { makeHarness } from "../harness.ts";

const env = (values: Record<string, string>) => (name: string) => values[name];

Deno.test("readDocsConfig: defaults, trailing slashes, the reserved alternative root", () => {
  assert.deepEqual(readDocsConfig(env({}), { apiPort: 8080 }), {
    port: 8081,
    publicBaseUrl: "http://127.0.0.1:8080",
    docsUrl: "http://127.0.0.1:8081",
    altBaseUrl: null,
    altActive: false,
  });
  const config = readDocsConfig(
    env({
      DOCS_PORT: "9000",
      PUBLIC_BASE_URL: "https://api.example.com/",
      DOCS_URL: "https://docs.example.com/",
      ALT_BASE_URL: "https://alt.example.com",
      ALT_BASE_URL_ACTIVE: "true",
    }),
    { apiPort: 8080 },
  );
  assert.equal(config.port, 9000);
  assert.equal(config.publicBaseUrl, "https://api.example.com");
  assert.equal(config.docsUrl, "https://docs.example.com");
  assert.equal(config.altBaseUrl, "https://alt.example.com");
  assert.equal(config.altActive, true);
  assert.equal(readDocsConfig(env({ DOCS_PORT: "off" }), { apiPort: 1 }).port, null);
});

Deno.test("readDocsConfig names the variable of a bad value", () => {
  const bad = (values: Record<string, string>, pattern: RegExp) =>
    assert.throws(() => readDocsConfig(env(values), { apiPort: 8080 }), pattern);
  bad({ DOCS_PORT: "eighty" }, /DOCS_PORT="eighty"/);
  bad({ PUBLIC_BASE_URL: "https://api.example.com/v1" }, /PUBLIC_BASE_URL=.*ends in \/v1/);
  bad({ DOCS_URL: "docs.example.com" }, /DOCS_URL=.*not a URL/);
  bad({ ALT_BASE_URL: "ftp://alt" }, /ALT_BASE_URL=.*http/);
  bad({ ALT_BASE_URL_ACTIVE: "maybe" }, /ALT_BASE_URL_ACTIVE/);
});

Deno.test("startDocsServer serves the gateway's document and pages on its own port", async () => {
  const h = await makeHarness();
  const lines: string[] = [];
  const docs = await startDocsServer({
    gateway: h.app,
    catalog: h.deps.catalog,
    env: env({ DOCS_PORT: "0", PUBLIC_BASE_URL: "https://api.example.com" }),
    hostname: "127.0.0.1",
    apiPort: 8080,
    log: (line) => lines.push(line),
  });
  try {
    assert.ok(docs.url);
    const page = await fetch(`${docs.url}/catalog`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /gpt-5\.5-large/);
    const document = await (await fetch(`${docs.url}/openapi.json`)).json();
    assert.equal(document.info.title, "gatehouse");
    assert.deepEqual(document.servers, [
      { url: "https://api.example.com", description: "The gateway root; SDKs add /v1." },
    ]);
    const refused = await fetch(`${docs.url}/v1/models`);
    assert.equal(refused.status, 404);
    assert.match((await refused.json()).error.message, /https:\/\/api\.example\.com/);
    assert.match(lines.join("\n"), /gatehouse docs on http:\/\/127\.0\.0\.1:\d+/);
  } finally {
    await docs.shutdown();
    await docs.finished;
    await h.close();
  }
  const off = await startDocsServer({
    gateway: h.app,
    catalog: h.deps.catalog,
    env: env({ DOCS_PORT: "off" }),
    hostname: "127.0.0.1",
    apiPort: 8080,
  });
  assert.equal(off.url, null);
});
