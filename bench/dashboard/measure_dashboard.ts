/**
 * The dashboard's load time over a large ledger: seeds `--rows` requests (default 100,000, over
 * 30 days) into a fresh SQLite file — and into a scratch Postgres database when `--postgres
 * ADMIN_URL` is given (created on that server and dropped after) — starts `main.ts --demo` on
 * it with its docs host, and measures
 * - the series endpoint's own time (`GET /admin/v1/usage/series`, each range and split, median
 *   of `--repeat` calls, through the API port);
 * - in headless Chromium, the time from navigating to `/dashboard` to the charts drawn after
 *   signing in, and from picking a range or split to the charts redrawn (median of `--repeat`
 *   fresh pages).
 * Prints one JSON object on stdout.
 *
 *   deno run -A bench/dashboard/measure_dashboard.ts [--rows 100000] [--repeat 5]
 *     [--postgres postgres://postgres@127.0.0.1:5432/postgres]
 * @module
 */
import { parseArgs } from "node:util";
import { openStore } from "../../store/open_store.ts";
import { createScratchDatabase } from "../../store/postgres/scratch_database.ts";
import { startGateway } from "../../tests/governance/gateway_process.ts";
import { launchChromium } from "../../tests/docs/browser_driver.ts";
import { drawn } from "../../tests/docs/dashboard_driver.ts";
import { seedLedger } from "../../tests/docs/dashboard_seed.ts";

const DAY = 86_400_000;
const RANGES = ["24h", "7d", "30d"] as const;
const SPLITS = ["model", "key", "team"] as const;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor((sorted.length - 1) / 2)]! * 10) / 10;
};

/** The series endpoint's median time per range and split, in ms. */
async function seriesTimes(api: string, admin: string, repeat: number) {
  const out: Record<string, number> = {};
  for (const range of RANGES) {
    for (const split of SPLITS) {
      const times: number[] = [];
      for (let i = 0; i < repeat; i++) {
        const started = performance.now();
        const response = await fetch(
          `${api}/admin/v1/usage/series?range=${range}&group_by=${split}`,
          { headers: { authorization: `Bearer ${admin}` } },
        );
        if (!response.ok) throw new Error(`series answered ${response.status}`);
        await response.arrayBuffer();
        times.push(performance.now() - started);
      }
      out[`${range} by ${split}`] = median(times);
    }
  }
  return out;
}

/** Page load to charts drawn, and redraws after picking 30 d and a split by key, in ms. */
async function pageTimes(docs: string, admin: string, repeat: number) {
  const browser = await launchChromium();
  const load: number[] = [];
  const signIn: number[] = [];
  const month: number[] = [];
  const byKey: number[] = [];
  try {
    for (let i = 0; i < repeat; i++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${docs}/dashboard`, { waitUntil: "load" });
      await page.fill("#admin-key", admin);
      const submitted = performance.now();
      await page.click("#signin-form button[type=submit]");
      await drawn(page, 1);
      load.push(performance.now() - started);
      signIn.push(performance.now() - submitted);
      let picked = performance.now();
      await page.click('[data-range="30d"]');
      await drawn(page, 2);
      month.push(performance.now() - picked);
      picked = performance.now();
      await page.selectOption("#group-by", "key");
      await drawn(page, 3);
      byKey.push(performance.now() - picked);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return {
    navigate_to_charts_drawn_ms: median(load),
    sign_in_to_charts_drawn_ms: median(signIn),
    pick_30d_to_redrawn_ms: median(month),
    split_by_key_30d_to_redrawn_ms: median(byKey),
  };
}

/** Seeds one store, serves it and measures. */
async function measure(kind: string, location: string, env: Record<string, string>, o: Options) {
  const store = await openStore(location);
  const started = performance.now();
  // Closed whatever happens: a file store that wrote its ledger runs a checkpoint worker, which
  // would keep the process alive.
  let seedMs = 0;
  const seeded = await seedLedger(store, { rows: o.rows, now: Date.now(), spanMs: 30 * DAY })
    .then((done) => {
      seedMs = performance.now() - started;
      return done;
    })
    .finally(() => store.close());
  const dbPath = kind === "sqlite" ? location : `${o.dir}/unused.db`;
  const gateway = await startGateway(dbPath, { env: { DOCS_PORT: "0", ...env } });
  try {
    const docs = /gatehouse docs on (http:\/\/[^\s]+)/.exec(gateway.output())?.[1];
    if (!docs) throw new Error(`no docs host in:\n${gateway.output()}`);
    const admin = seeded.admin.key;
    return {
      store: kind,
      rows: o.rows,
      seed_ms: Math.round(seedMs),
      series_endpoint_ms: await seriesTimes(gateway.url, admin, o.repeat),
      page: await pageTimes(docs, admin, o.repeat),
    };
  } finally {
    await gateway.stop();
  }
}

interface Options {
  rows: number;
  repeat: number;
  dir: string;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      rows: { type: "string", default: "100000" },
      repeat: { type: "string", default: "5" },
      postgres: { type: "string" },
    },
  });
  const dir = await Deno.makeTempDir({ prefix: "gatehouse-dashboard-bench-" });
  const options = { rows: Number(values.rows), repeat: Number(values.repeat), dir };
  const results = [];
  try {
    results.push(await measure("sqlite", `${dir}/gatehouse.db`, {}, options));
    if (values.postgres) {
      const database = await createScratchDatabase(values.postgres, "gatehouse_dashboard");
      try {
        const url = database.url.toString();
        results.push(await measure("postgres", url, { DATABASE_URL: url }, options));
      } finally {
        await database.drop();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log(JSON.stringify({ chromium: "/usr/bin/chromium", results }, null, 2));
}
