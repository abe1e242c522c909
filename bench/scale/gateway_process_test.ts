import assert from "node:assert/strict";
import { parseStartup } from "./gateway_process.ts";

Deno.test("parseStartup: nothing until the listening line; then its URL and the admin key", () => {
  const key = "\nNo API keys existed, so an admin key was created (id abc). It is shown once; " +
    "store it now:\n\n    gth_abc_SECRET\n\n";
  assert.equal(parseStartup(key), null);
  const listening = "gatehouse listening on http://127.0.0.1:41234 (workers 2, store sqlite x)\n";
  assert.deepEqual(parseStartup(key + listening), {
    url: "http://127.0.0.1:41234",
    adminKey: "gth_abc_SECRET",
  });
  assert.deepEqual(parseStartup(listening), { url: "http://127.0.0.1:41234", adminKey: null });
});
