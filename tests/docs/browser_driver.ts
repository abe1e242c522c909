/**
 * Drives headless Chromium through playwright-core over a running docs host and prints what it
 * saw as JSON. `browser_test.ts` runs it as its own `deno run -A` process: playwright-core reads
 * /proc paths that Deno grants only to fully privileged programs, and the test runner's task
 * runs without --allow-all.
 *
 *   deno run -A tests/docs/browser_driver.ts <docs url> <screenshot dir>
 * @module
 */
import { type Browser, chromium } from "playwright-core";

/** What the driver reports. */
export interface BrowserReport {
  reference: { blocks: number; paths: string[]; tableVisible: boolean };
  catalog: {
    rows: (string | null)[];
    allVisible: boolean;
    flagshipBadge: string;
    previewBadge: boolean;
  };
  origins: string[];
  errors: string[];
}

/** The Chromium flags for a quiet, offline, headless run. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Headless Chromium (`/usr/bin/chromium`) with {@link CHROMIUM_ARGS}. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

async function drive(docs: string, screenshots: string, flagship: string): Promise<BrowserReport> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const origins = new Set<string>();
    page.on("request", (request) => origins.add(new URL(request.url()).origin));
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));

    await page.goto(`${docs}/reference`, { waitUntil: "load" });
    const blocks = page.locator("#swagger-ui .opblock");
    await blocks.first().waitFor({ state: "visible", timeout: 30_000 });
    const reference = {
      blocks: await blocks.count(),
      paths: (await page.locator("#swagger-ui .opblock-summary-path").allInnerTexts())
        .map((p) => p.replace(/\u200b/g, "")),
      tableVisible: await page.locator("table.routes tr.route").first().isVisible(),
    };
    await page.screenshot({ path: `${screenshots}/reference.png`, fullPage: true });

    await page.goto(`${docs}/catalog`, { waitUntil: "load" });
    const rows = page.locator("table.catalog tr[data-model]");
    await rows.first().waitFor({ state: "visible" });
    const count = await rows.count();
    let allVisible = true;
    for (let i = 0; i < count; i++) allVisible &&= await rows.nth(i).isVisible();
    const badge = page.locator(`tr[data-model="${flagship}"] .badge`);
    const catalog = {
      rows: await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-model"))),
      allVisible,
      flagshipBadge: (await badge.isVisible()) ? await badge.innerText() : "",
      previewBadge: await page.locator('tr[data-model="gpt-4o-audio-preview"] .badge.warn')
        .isVisible(),
    };
    await page.screenshot({ path: `${screenshots}/catalog.png`, fullPage: true });
    return { reference, catalog, origins: [...origins], errors };
  } finally {
    await browser.close();
  }
}

if (import.meta.main) {
  const [docs, screenshots, flagship] = Deno.args;
  if (!docs || !screenshots || !flagship) {
    console.error("usage: browser_driver.ts <docs url> <screenshot dir> <flagship id>");
    Deno.exit(2);
  }
  console.log(JSON.stringify(await drive(docs, screenshots, flagship)));
}
