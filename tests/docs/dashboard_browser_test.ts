/**
 * The dashboard in a real browser, over a real gateway: `main.ts --demo` on a seeded SQLite
 * file with its docs host, and headless Chromium (`dashboard_driver.ts`) signing in, reading
 * the charts' data, creating a key that then works on the API, revoking it, and the key then
 * refused. Screenshots go to tests/screenshots/ (their paths are printed).
 */
import assert from "node:assert/strict";
import { openSqliteStore } from "../../store/sqlite/sqlite_store.ts";
import type { UsageRecord } from "../../store/store.ts";
import { FIRST_KEY, startGateway } from "../governance/gateway_process.ts";
import type { ChartsSeen, DashboardReport } from "./dashboard_driver.ts";
import type { EmptyReport } from "./dashboard_empty_driver.ts";
import { seedLedger } from "./dashboard_seed.ts";
import { chromiumPresent, chromiumSkipped, runCommand } from "./docs_env.ts";

const SCREENSHOTS = new URL("../screenshots", import.meta.url).pathname;
const DRIVER = new URL("./dashboard_driver.ts", import.meta.url).pathname;
const EMPTY_DRIVER = new URL("./dashboard_empty_driver.ts", import.meta.url).pathname;
const DAY = 86_400_000;

/** The rows of `[start, end)` of a chart window. */
function within(rows: UsageRecord[], seen: ChartsSeen): UsageRecord[] {
  const start = Date.parse(seen.start);
  const end = Date.parse(seen.end);
  return rows.filter((r) => r.time >= start && r.time < end);
}

const total = (chart: ChartsSeen["charts"][string], label?: string) =>
  chart.datasets.filter((d) => label === undefined || d.label === label)
    .reduce((sum, d) => sum + d.data.reduce<number>((s, v) => s + (v ?? 0), 0), 0);

Deno.test({
  name:
    `headless Chromium: the dashboard's charts, and a key created, used and revoked${chromiumSkipped}`,
  ignore: !chromiumPresent,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "gatehouse-dashboard-" });
    const db = `${dir}/gatehouse.db`;
    const store = openSqliteStore(db);
    const seeded = await seedLedger(store, { rows: 600, now: Date.now(), spanMs: 6 * DAY })
      .finally(() => store.close());
    const gateway = await startGateway(db, { env: { DOCS_PORT: "0" } });
    try {
      const docs = /gatehouse docs on (http:\/\/[^\s]+)/.exec(gateway.output())?.[1];
      assert.ok(docs, gateway.output());
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      const run = await runCommand(
        Deno.execPath(),
        ["run", "-A", DRIVER, docs, gateway.url, seeded.admin.key, SCREENSHOTS],
        {
          env: { HOME: Deno.env.get("HOME") ?? dir },
          cwd: new URL("../..", import.meta.url).pathname,
        },
      );
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout) as DashboardReport;
      for (const path of report.screenshots) console.log(`screenshot: ${path}`);
      console.log(`charts drawn ${Math.round(report.drawnMs)} ms after navigation`);

      // 24 h by model: every chart's sums are the ledger's over the page's window.
      const day = report.day;
      const dayRows = within(seeded.rows, day);
      assert.ok(dayRows.length > 0);
      assert.equal(day.charts["chart-spend"]!.labels.length, 24);
      const cost = dayRows.reduce((sum, r) => sum + r.cost, 0);
      assert.ok(Math.abs(total(day.charts["chart-spend"]!) - cost) < 1e-4, "spend");
      const tokens = dayRows.reduce((sum, r) => sum + r.inputTokens + r.outputTokens, 0);
      assert.equal(total(day.charts["chart-tokens"]!), tokens);
      assert.equal(total(day.charts["chart-requests"]!, "requests"), dayRows.length);
      const models = new Set(dayRows.map((r) => r.servedModel || r.model));
      assert.deepEqual(
        new Set(day.charts["chart-spend"]!.datasets.map((d) => d.label)),
        models,
      );
      const latency = day.charts["chart-latency"]!;
      assert.deepEqual(latency.datasets.map((d) => d.label), [
        "latency p50",
        "latency p95",
        "TTFT p50",
        "TTFT p95",
      ]);
      assert.ok(latency.datasets.every((d) => d.data.some((v) => typeof v === "number")));

      // 7 d by key: 28 buckets, the keys by name (the one named with markup as text).
      const week = report.week;
      assert.equal(week.charts["chart-spend"]!.labels.length, 28);
      const weekCost = within(seeded.rows, week).reduce((sum, r) => sum + r.cost, 0);
      assert.ok(Math.abs(total(week.charts["chart-spend"]!) - weekCost) < 1e-4, "week spend");
      const labels = week.charts["chart-spend"]!.datasets.map((d) => d.label);
      for (const key of seeded.keys) {
        assert.ok(labels.some((l) => l.startsWith(`${key.name} (gth_`)), key.name);
      }
      const marked = report.keyRows.find((row) => row.name.startsWith("<img"));
      assert.ok(marked, "the key named with markup is listed as text");
      assert.equal(marked.imgs, 0);
      assert.ok(report.deployments > 0);
      assert.match(report.inflight, /^\d+$/);

      // The new key: shown once, works, then refused once revoked in the page.
      assert.match(report.secret, /^gth_/);
      assert.equal(report.before, 200);
      assert.equal(report.secretAfterDone, false);
      assert.equal(report.secretAfterReload, false);
      assert.equal(report.after, 401);
      assert.ok(report.stored, "the admin key is in session storage");
      assert.equal(report.keyInUrl, false);
      assert.deepEqual(report.origins, [docs], "every request went to the docs host");
      assert.deepEqual(report.errors, []);
      for (const path of report.screenshots) assert.ok(Deno.statSync(path).size > 10_000, path);
    } finally {
      await gateway.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: `headless Chromium: the dashboard over an empty ledger${chromiumSkipped}`,
  ignore: !chromiumPresent,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "gatehouse-dashboard-empty-" });
    const gateway = await startGateway(`${dir}/gatehouse.db`, { env: { DOCS_PORT: "0" } });
    try {
      const docs = /gatehouse docs on (http:\/\/[^\s]+)/.exec(gateway.output())?.[1];
      const admin = FIRST_KEY.exec(gateway.output())?.[1];
      assert.ok(docs && admin, gateway.output());
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      const run = await runCommand(Deno.execPath(), [
        "run",
        "-A",
        EMPTY_DRIVER,
        docs,
        admin,
        SCREENSHOTS,
      ], {
        env: { HOME: Deno.env.get("HOME") ?? dir },
        cwd: new URL("../..", import.meta.url).pathname,
      });
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout) as EmptyReport;
      console.log(`screenshot: ${report.screenshot}`);
      // Every chart drawn over 24 empty buckets; the totals say nothing happened.
      for (const [id, chart] of Object.entries(report.charts)) {
        assert.equal(chart.labels.length, 24, id);
        assert.equal(total(chart), 0, id);
      }
      assert.deepEqual(report.totals, ["$0.00", "0", "0", "–"]);
      assert.equal(report.keyRows, 1, "the first admin key is listed");
      assert.ok(report.deployments > 1, "the demo deployments are listed");
      assert.deepEqual(report.errors, []);
    } finally {
      await gateway.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
