/**
 * Drives headless Chromium through the dashboard of a running gateway and prints what it saw as
 * JSON (`dashboard_browser_test.ts` runs it as its own `deno run -A` process, as
 * `browser_driver.ts` is run): sign in, read the charts' data for 24 h by model and 7 d by key,
 * create a key (its secret shown once), use it on the API, revoke it, see it refused.
 *
 *   deno run -A tests/docs/dashboard_driver.ts <docs url> <api url> <admin key> <screenshot dir>
 * @module
 */
import type { Page } from "playwright-core";
import { launchChromium } from "./browser_driver.ts";

/** One chart's labels and datasets, as the page's Chart.js instance holds them. */
export interface ChartSeen {
  labels: string[];
  datasets: Array<{ label: string; data: Array<number | null> }>;
}

/** The charts of one range and split, and the window the page asked for. */
export interface ChartsSeen {
  start: string;
  end: string;
  charts: Record<string, ChartSeen>;
}

/** What the driver reports. */
export interface DashboardReport {
  /** Milliseconds from navigation to the charts drawn after signing in. */
  drawnMs: number;
  day: ChartsSeen;
  week: ChartsSeen;
  keyRows: Array<{ id: string; name: string; imgs: number }>;
  deployments: number;
  inflight: string;
  secret: string;
  /** Whether the secret is anywhere on the page after "Done", and after a reload. */
  secretAfterDone: boolean;
  secretAfterReload: boolean;
  /** The new key's answers on the API: before and after the revoke. */
  before: number;
  after: number;
  revokedRow: boolean;
  /** Whether session storage held the admin key, and any request URL carried it. */
  stored: boolean;
  keyInUrl: boolean;
  origins: string[];
  errors: string[];
  screenshots: string[];
}

/** What the page exposes for tests. */
interface Exposed {
  gatehouseDashboard: {
    chartData(): Record<string, ChartSeen>;
    state: { series: { start: string; end: string } };
  };
}

/** The charts' data and window, read from the page. */
export const chartData = (page: Page): Promise<ChartsSeen> =>
  page.evaluate(() => {
    const exposed = (globalThis as unknown as Exposed).gatehouseDashboard;
    const { start, end } = exposed.state.series;
    return { start, end, charts: exposed.chartData() };
  });

/** The little of the page's DOM the waits read (Deno's types have no DOM). */
interface PageGlobals {
  document: {
    getElementById(id: string): {
      getAttribute(name: string): string | null;
      textContent: string | null;
    } | null;
  };
}

/** Waits until the charts were drawn `count` times, for `range` split by `groupBy` when given
 * (the page marks each drawing on `#board`). A function, not a string: the page's content
 * security policy forbids evaluating strings. */
export async function drawn(
  page: Page,
  count: number,
  range?: string,
  groupBy?: string,
): Promise<void> {
  await page.waitForFunction(
    ([n, r, g]) => {
      const board = (globalThis as unknown as PageGlobals).document.getElementById("board");
      return Number(board?.getAttribute("data-drawn") ?? 0) >= Number(n) &&
        (r === "" || board?.getAttribute("data-range") === r) &&
        (g === "" || board?.getAttribute("data-group-by") === g);
    },
    [String(count), range ?? "", groupBy ?? ""],
    { timeout: 60_000, polling: 5 },
  );
}

/** A chat request with `key` on the API: its status. */
async function call(api: string, key: string): Promise<number> {
  const response = await fetch(`${api}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-5.5", messages: [{ role: "user", content: "hi" }] }),
  });
  await response.body?.cancel();
  return response.status;
}

async function drive(docs: string, api: string, admin: string, dir: string) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const origins = new Set<string>();
    const urls: string[] = [];
    const errors: string[] = [];
    const screenshots: string[] = [];
    page.on("request", (request) => {
      urls.push(request.url());
      origins.add(new URL(request.url()).origin);
    });
    page.on("pageerror", (error) => errors.push(String(error)));
    page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
    page.on("dialog", (dialog) => dialog.accept());
    const shot = async (name: string) => {
      const path = `${dir}/${name}`;
      await page.screenshot({ path, fullPage: true });
      screenshots.push(path);
    };

    const started = performance.now();
    await page.goto(`${docs}/dashboard`, { waitUntil: "load" });
    await page.fill("#admin-key", admin);
    await page.click("#signin-form button[type=submit]");
    await drawn(page, 1, "24h", "model");
    const drawnMs = performance.now() - started;
    await page.waitForSelector("#keys tbody tr");
    await page.waitForFunction(() =>
      (globalThis as unknown as PageGlobals).document.getElementById("inflight")?.textContent !==
        "–"
    );
    const day = await chartData(page);
    const stored = await page.evaluate(() => sessionStorage.getItem("gatehouse.adminKey")) ===
      admin;
    await shot("dashboard-24h-by-model.png");

    await page.click('[data-range="7d"]');
    await drawn(page, 2, "7d", "model");
    await page.selectOption("#group-by", "key");
    await drawn(page, 3, "7d", "key");
    const week = await chartData(page);
    await shot("dashboard-7d-by-key.png");

    const keyRows = await page.$$eval("#keys tbody tr", (rows) =>
      rows.map((row) => ({
        id: row.getAttribute("data-key-id") ?? "",
        name: row.querySelector("td")?.textContent ?? "",
        imgs: row.querySelectorAll("img").length,
      })));
    const deployments = await page.locator("#deployments tbody tr").count();
    const inflight = await page.locator("#inflight").innerText();

    await page.fill("#key-name", "made in the dashboard");
    await page.fill("#key-rpm", "30");
    await page.click("#key-submit");
    await page.waitForSelector("#secret:not([hidden])");
    const secret = await page.locator("#secret-value").innerText();
    const id = secret.split("_")[1] ?? "";
    await page.waitForSelector(`#keys tr[data-key-id="${id}"]`);
    await shot("dashboard-key-created.png");
    const before = await call(api, secret);
    await page.click("#secret-done");
    const secretAfterDone = (await page.content()).includes(secret);
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector(`#keys tr[data-key-id="${id}"]`);
    const secretAfterReload = (await page.content()).includes(secret);

    await page.click(`#keys tr[data-key-id="${id}"] button.danger`);
    await page.waitForSelector(`#keys tr.revoked[data-key-id="${id}"]`);
    const after = await call(api, secret);
    await shot("dashboard-key-revoked.png");
    return {
      drawnMs,
      day,
      week,
      keyRows,
      deployments,
      inflight,
      secret,
      secretAfterDone,
      secretAfterReload,
      before,
      after,
      revokedRow: true,
      stored,
      keyInUrl: urls.some((url) => url.includes(admin)),
      origins: [...origins],
      errors,
      screenshots,
    } satisfies DashboardReport;
  } finally {
    await browser.close();
  }
}

if (import.meta.main) {
  const [docs, api, admin, dir] = Deno.args;
  if (!docs || !api || !admin || !dir) {
    console.error("usage: dashboard_driver.ts <docs url> <api url> <admin key> <screenshot dir>");
    Deno.exit(2);
  }
  console.log(JSON.stringify(await drive(docs, api, admin, dir)));
}
