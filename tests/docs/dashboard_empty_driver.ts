/**
 * The dashboard over an empty ledger, in headless Chromium: signs in with the first admin key,
 * waits for the charts, reads their data, the keys table and the deployments, and takes a
 * screenshot. Prints a JSON report. Run as its own `deno run -A` process (see
 * `browser_driver.ts` for why).
 *
 *   deno run -A tests/docs/dashboard_empty_driver.ts <docs url> <admin key> <screenshot dir>
 * @module
 */
import { launchChromium } from "./browser_driver.ts";
import { chartData, type ChartsSeen, drawn } from "./dashboard_driver.ts";

/** What the empty-ledger run saw. */
export interface EmptyReport {
  charts: ChartsSeen["charts"];
  totals: string[];
  keyRows: number;
  deployments: number;
  errors: string[];
  screenshot: string;
}

async function drive(docs: string, admin: string, dir: string): Promise<EmptyReport> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
    await page.goto(`${docs}/dashboard`, { waitUntil: "load" });
    await page.fill("#admin-key", admin);
    await page.click("#signin-form button[type=submit]");
    await drawn(page, 1, "24h", "model");
    await page.waitForSelector("#keys tbody tr");
    const seen = await chartData(page);
    const screenshot = `${dir}/dashboard-empty.png`;
    await page.screenshot({ path: screenshot, fullPage: true });
    return {
      charts: seen.charts,
      totals: await page.locator("#totals dd").allInnerTexts(),
      keyRows: await page.locator("#keys tbody tr").count(),
      deployments: await page.locator("#deployments tr").count(),
      errors,
      screenshot,
    };
  } finally {
    await browser.close();
  }
}

if (import.meta.main) {
  const [docs, admin, dir] = Deno.args;
  if (!docs || !admin || !dir) {
    console.error("usage: dashboard_empty_driver.ts <docs url> <admin key> <screenshot dir>");
    Deno.exit(2);
  }
  console.log(JSON.stringify(await drive(docs, admin, dir)));
}
