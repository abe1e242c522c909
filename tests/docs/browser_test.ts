/**
 * A real browser renders the reference and the catalog: headless Chromium (Debian's package)
 * driven by playwright-core (in `browser_driver.ts`) loads Swagger UI from the docs host alone
 * and shows the route list, and shows the catalog rows. Screenshots go to tests/screenshots/.
 */
import assert from "node:assert/strict";
import { routeList } from "../../routes/table.ts";
import type { BrowserReport } from "./browser_driver.ts";
import { chromiumPresent, chromiumSkipped, runCommand, startDocsEnv } from "./docs_env.ts";

const SCREENSHOTS = new URL("../screenshots", import.meta.url).pathname;
const DRIVER = new URL("./browser_driver.ts", import.meta.url).pathname;

Deno.test({
  name: `headless Chromium shows the reference's route list and the catalog rows${chromiumSkipped}`,
  ignore: !chromiumPresent,
  fn: async () => {
    const env = await startDocsEnv();
    try {
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      const flagship = env.harness.deps.catalog.setupDefaults.flagship;
      const run = await runCommand(
        Deno.execPath(),
        ["run", "-A", DRIVER, env.docs, SCREENSHOTS, flagship],
        {
          env: { HOME: Deno.env.get("HOME") ?? env.home },
          cwd: new URL("../..", import.meta.url).pathname,
        },
      );
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout) as BrowserReport;

      assert.equal(report.reference.blocks, routeList.length);
      for (const spec of routeList) {
        assert.ok(report.reference.paths.includes(spec.route.path), spec.route.path);
      }
      assert.ok(report.reference.tableVisible);
      assert.deepEqual(report.catalog.rows, env.harness.deps.catalog.listed().map((m) => m.id));
      assert.ok(report.catalog.allVisible);
      assert.equal(report.catalog.flagshipBadge, "set-up default: flagship");
      assert.ok(report.catalog.previewBadge);
      assert.deepEqual(report.origins, [env.docs], "everything came from the docs host");
      assert.deepEqual(report.errors, []);
      for (const shot of ["reference.png", "catalog.png"]) {
        assert.ok(Deno.statSync(`${SCREENSHOTS}/${shot}`).size > 10_000, shot);
      }
    } finally {
      await env.close();
    }
  },
});
