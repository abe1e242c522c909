/**
 * The dashboard's page and assets on the docs host, and the admin API forwarded to the gateway
 * (same origin, the gateway's own authentication; the docs host's base path removed), without a
 * browser: `dashboard_browser_test.ts` drives it in Chromium.
 */
import assert from "node:assert/strict";
import { createDocsApp } from "../../docs/mod.ts";
import { type Harness, makeHarness } from "../harness.ts";

function docsApp(h: Harness, docsUrl = "https://docs.gatehouse.example", forward = true) {
  return createDocsApp({
    document: () => ({}),
    catalog: h.deps.catalog,
    publicBaseUrl: "https://api.gatehouse.example",
    docsUrl,
    adminApi: forward ? (request) => h.app.fetch(request) : undefined,
  });
}

Deno.test("/dashboard: a frame with no inline script, under a strict policy", async () => {
  const h = await makeHarness();
  try {
    const response = await docsApp(h).request("/dashboard");
    assert.equal(response.status, 200);
    const csp = response.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /connect-src 'self';/);
    assert.doesNotMatch(csp, /unsafe/);
    const text = await response.text();
    const scripts = [...text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    assert.deepEqual(scripts.map((s) => /src="([^"]+)"/.exec(s)?.[1]), [
      "/assets/vendor/chart.umd.min.js",
      "/assets/dashboard.js",
    ]);
    assert.match(text, /<input type="password" id="admin-key"/);
  } finally {
    await h.close();
  }
});

Deno.test("the dashboard's assets come from the docs host: Chart.js from its npm package", async () => {
  const h = await makeHarness();
  try {
    const app = docsApp(h);
    const chart = await app.request("/assets/vendor/chart.umd.min.js");
    assert.equal(chart.status, 200);
    assert.match(chart.headers.get("content-type") ?? "", /^text\/javascript/);
    const body = await chart.text();
    assert.ok(body.length > 100_000 && body.includes("Chart.js v4"), "the UMD bundle");
    const script = await (await app.request("/assets/dashboard.js")).text();
    assert.ok(script.startsWith('"use strict";'));
    assert.doesNotMatch(script, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    assert.doesNotMatch(script, /localStorage/, "the key stays in session storage");
    assert.equal((await app.request("/assets/vendor/other.js")).status, 404);
    assert.equal((await app.request("/assets/dashboard.css")).status, 200);
  } finally {
    await h.close();
  }
});

Deno.test("the docs host forwards /admin/v1 to the gateway, which authenticates", async () => {
  const h = await makeHarness();
  try {
    for (const app of [docsApp(h), docsApp(h, "https://example.com/docs")]) {
      const status = await app.request("/admin/v1/status", {
        headers: { authorization: `Bearer ${h.adminKey}` },
      });
      assert.equal(status.status, 200);
      assert.equal((await status.json()).object, "status");
      assert.equal(status.headers.get("access-control-allow-origin"), null);
      const refused = await app.request("/admin/v1/keys", {
        headers: { authorization: `Bearer ${h.key}` },
      });
      assert.equal(refused.status, 403);
      assert.equal((await app.request("/admin/v1/keys")).status, 401);
    }
    // Under the docs host's base path, and with a body.
    const based = docsApp(h, "https://example.com/docs");
    const created = await based.request("/docs/admin/v1/teams", {
      method: "POST",
      headers: { authorization: `Bearer ${h.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ id: "made-through-docs" }),
    });
    assert.equal(created.status, 200, await created.clone().text());
    assert.equal((await h.deps.store.getTeam("made-through-docs"))?.id, "made-through-docs");
    // Model routes stay refused, and without a gateway the admin paths are not served.
    assert.equal((await based.request("/v1/models")).status, 404);
    const alone = await docsApp(h, undefined, false).request("/admin/v1/status", {
      headers: { authorization: `Bearer ${h.adminKey}` },
    });
    assert.equal(alone.status, 404);
    assert.match(alone.headers.get("content-type") ?? "", /^text\/html/);
  } finally {
    await h.close();
  }
});
