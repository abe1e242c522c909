/**
 * The API reference lists every route without JavaScript (the admin routes marked as taking an
 * admin key) and loads Swagger UI from the docs host itself (the swagger-ui-dist package), never
 * from another origin.
 */
import assert from "node:assert/strict";
import absolutePath from "swagger-ui-dist/absolute-path.js";
import { createDocsApp } from "../../docs/mod.ts";
import { escapeHtml } from "../../docs/html.ts";
import { adminRoutes } from "../../routes/admin_routes.ts";
import { routeList } from "../../routes/table.ts";
import { makeHarness } from "../harness.ts";
import { squash } from "./docs_env.ts";

async function docsApp() {
  const h = await makeHarness();
  const document = await (await h.request("/openapi.json")).json();
  await h.close();
  return createDocsApp({
    document: () => document,
    catalog: h.deps.catalog,
    publicBaseUrl: "https://api.gatehouse.example",
    docsUrl: "https://docs.gatehouse.example",
  });
}

Deno.test("the reference page lists every route server-side", async () => {
  const text = squash(await (await (await docsApp()).request("/reference")).text());
  const rows = [
    ...text.matchAll(/<tr class="route"><td class="method">(\w+)<\/td><td><code>([^<]+)<\/code>/g),
  ]
    .map((m) => `${m[1]} ${m[2]}`);
  assert.deepEqual(
    rows.sort(),
    routeList.map((spec) => `${spec.route.method.toUpperCase()} ${spec.route.path}`).sort(),
  );
  assert.match(text, /also <code>\/chat\/completions<\/code>/);
  assert.match(text, /<div id="swagger-ui" data-spec="\/openapi\.json">/);
});

Deno.test("Swagger UI's assets come from this host, byte for byte from swagger-ui-dist", async () => {
  const app = await docsApp();
  const response = await app.request("/reference");
  assert.match(response.headers.get("content-security-policy") ?? "", /script-src 'self';/);
  const text = await response.text();
  const urls = [...text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(urls.every((url) => url.startsWith("/")), `only local URLs: ${urls.join(" ")}`);
  const assets = urls.filter((url) => url.startsWith("/assets/swagger-ui-dist/"));
  assert.deepEqual(assets.sort(), [
    "/assets/swagger-ui-dist/swagger-ui-bundle.js",
    "/assets/swagger-ui-dist/swagger-ui.css",
  ]);
  for (const url of assets) {
    const served = await app.request(url);
    assert.equal(served.status, 200, url);
    const name = url.split("/").at(-1)!;
    const expected = await Deno.readFile(`${absolutePath()}/${name}`);
    assert.deepEqual(new Uint8Array(await served.arrayBuffer()), expected, url);
  }
  assert.match(await (await app.request("/assets/reference.js")).text(), /validatorUrl: null/);
  assert.equal((await app.request("/assets/swagger-ui-dist/package.json")).status, 404);
  assert.equal((await app.request("/assets/swagger-ui-dist/..%2Fpackage.json")).status, 404);
});

Deno.test("the reference marks the admin routes as taking an admin key", async () => {
  const text = squash(await (await (await docsApp()).request("/reference")).text());
  assert.match(
    text,
    /<code>\/admin\/v1\/keys<\/code><\/td><td>[^<]*<\/td><td>Bearer \(admin key\)<\/td>/,
  );
  assert.match(text, /<code>\/v1\/usage<\/code>.*?<td>Bearer<\/td>/);
});

Deno.test("every admin route is listed with its summary and an admin key; no other route is", async () => {
  const text = squash(await (await (await docsApp()).request("/reference")).text());
  const rows = [
    ...text.matchAll(
      /<tr class="route"><td class="method">(\w+)<\/td><td><code>([^<]+)<\/code>.*?<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g,
    ),
  ].map((m) => ({ route: `${m[1]} ${m[2]}`, summary: m[3]!, key: m[4]! }));
  const admin = Object.values(adminRoutes).map(({ route }) => ({
    route: `${route.method.toUpperCase()} ${route.path}`,
    summary: escapeHtml(route.summary ?? ""),
    key: "Bearer (admin key)",
  }));
  assert.ok(admin.length >= 12, "keys, teams and usage");
  for (const expected of admin) {
    assert.deepEqual(rows.find((r) => r.route === expected.route), expected, expected.route);
  }
  // `/metrics` takes an admin key outside the admin prefix (where scrapers look for it).
  const metrics = rows.find((r) => r.route === "GET /metrics");
  assert.equal(metrics?.key, "Bearer (admin key)");
  const others = rows.filter((r) => !r.route.includes(" /admin/") && r !== metrics);
  assert.equal(others.length + admin.length + 1, rows.length);
  for (const row of others) assert.ok(!row.key.includes("admin"), row.route);
  assert.match(text, /take an admin key; <a href="\/keys">keys, limits and budgets<\/a>/);
});
