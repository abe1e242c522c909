/**
 * The "Performance" page: in the navigation, and showing exactly the published figures
 * (`docs/performance.json`, written by `deno task bench --publish`).
 */
import assert from "node:assert/strict";
import { createDocsApp } from "../../docs/mod.ts";
import { NAV } from "../../docs/layout.ts";
import { PERFORMANCE } from "../../docs/performance_data.ts";
import { loadCatalog } from "../../catalog/load.ts";
import { squash } from "./docs_env.ts";

const catalog = await loadCatalog({ demo: true, env: () => undefined });

async function page(): Promise<string> {
  const app = createDocsApp({
    document: () => ({}),
    catalog,
    publicBaseUrl: "https://api.gatehouse.example",
    docsUrl: "https://docs.gatehouse.example",
  });
  const response = await app.request("/performance");
  assert.equal(response.status, 200);
  return squash(await response.text());
}

const int = (value: number) => Math.round(value).toLocaleString("en-US");

Deno.test("performance page: in the navigation", () => {
  assert.ok(NAV.some((group) => group.items.some((item) => item.path === "/performance")));
});

Deno.test("performance page: the published figures, each row and check", async () => {
  const text = await page();
  assert.ok(PERFORMANCE.throughput.length > 0, "docs/performance.json has throughput rows");
  assert.ok(text.includes(PERFORMANCE.commit), "names the commit measured");
  assert.ok(text.includes(PERFORMANCE.machine), "describes the machine");
  for (const row of PERFORMANCE.throughput.filter((r) => r.concurrency > 1)) {
    const gatehouse = row.gatehouse!;
    const proxy = row.proxy!;
    const ratio = (gatehouse.rps / proxy.rps).toFixed(2);
    assert.ok(
      text.includes(`${int(gatehouse.rps)} <small>(${ratio}×)</small>`),
      `${row.label}: gatehouse ${int(gatehouse.rps)} req/s at ${ratio}× the proxy`,
    );
  }
  for (const check of [...PERFORMANCE.checks, ...PERFORMANCE.deploymentChecks]) {
    assert.ok(
      text.includes(`<strong>${check.pass ? "PASS" : "MISS"}</strong> ${squash(check.name)}`),
      check.name,
    );
  }
  for (const run of PERFORMANCE.streams) {
    assert.ok(text.includes(`${int(run.streams)} (${int(run.completed)})`), run.target);
    const cpu = run.cpuPerChunk
      ? `${run.cpuPerChunk.us} µs (${run.cpuPerChunk.timesUpstream}×)`
      : "—";
    assert.ok(text.includes(`<td>${cpu}</td>`), `${run.target}: CPU per chunk ${cpu}`);
  }
  assert.ok(text.includes("deno task bench --publish"), "says how to reproduce");
  // The agent body's paragraph explains rows of that scenario: only with them (publications
  // before it was measured have none).
  assert.equal(
    text.includes("<em>56 kB agent body</em> rows"),
    PERFORMANCE.throughput.some((row) => row.scenario === "agent-json"),
  );
});
