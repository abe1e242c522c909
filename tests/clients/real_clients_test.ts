/**
 * What the real-client tests do when the clients cannot be installed: skipped with the reason on
 * a developer's machine, failed with the reason under CI. (Nothing here installs anything.)
 */
import assert from "node:assert/strict";
import { clientTestDefinition, installRequired, type RealClients } from "./real_clients.ts";

const missing: RealClients = {
  ready: false,
  reason: "npm is not installed",
  enable: "apt-get install -y npm",
};
const noop = () => Promise.resolve();

Deno.test("installRequired: CI set to a true value requires the clients", () => {
  for (const value of ["true", "1", "yes", "TRUE"]) {
    assert.equal(installRequired(value), true);
  }
  for (const value of [undefined, "", "0", "false", "False"]) {
    assert.equal(installRequired(value), false, String(value));
  }
});

Deno.test("without CI, unavailable clients make an ignored test naming the reason and the fix", () => {
  const test = clientTestDefinition(missing, "codex runs", noop, false);
  assert.equal(test.ignore, true);
  assert.equal(
    test.name,
    "codex runs (skipped: npm is not installed; enable with: apt-get install -y npm)",
  );
});

Deno.test("under CI, unavailable clients make a test that fails with the reason", async () => {
  const test = clientTestDefinition(missing, "codex runs", noop, true);
  assert.notEqual(test.ignore, true);
  assert.equal(test.name, "codex runs");
  await assert.rejects(
    async () => await test.fn({} as Deno.TestContext),
    /could not be installed: npm is not installed\. CI is set.*apt-get install -y npm/,
  );
});

Deno.test("ready clients run the test with their binaries, CI or not", async () => {
  const ready: RealClients = {
    ready: true,
    binaries: { claude: "/c", codex: "/x" },
  };
  for (const required of [false, true]) {
    let seen = "";
    const test = clientTestDefinition(ready, "runs", (b) => {
      seen = b.codex;
      return Promise.resolve();
    }, required);
    assert.notEqual(test.ignore, true);
    await test.fn({} as Deno.TestContext);
    assert.equal(seen, "/x");
  }
});
