import assert from "node:assert/strict";
import { allocationSites, type SamplingNode } from "./allocation_sites.ts";

const root = new URL("../", import.meta.url).href;

function node(
  functionName: string,
  url: string,
  lineNumber: number,
  selfSize: number,
  children: SamplingNode[] = [],
): SamplingNode {
  return { callFrame: { functionName, url, lineNumber }, selfSize, children };
}

Deno.test("allocationSites: sums a function's bytes wherever it was called, largest first", () => {
  const head = node("(root)", "", -1, 0, [
    node("serve", `${root}routes/model_lane.ts`, 45, 100, [
      node("readJsonBody", `${root}routes/body.ts`, 30, 700),
      node("", "", -1, 50),
    ]),
    node("flush", `${root}store/sqlite/usage.ts`, 44, 300, [
      node("readJsonBody", `${root}routes/body.ts`, 30, 200),
    ]),
  ]);
  assert.deepEqual(allocationSites(head), [
    { site: "readJsonBody routes/body.ts:31", bytes: 900 },
    { site: "flush store/sqlite/usage.ts:45", bytes: 300 },
    { site: "serve routes/model_lane.ts:46", bytes: 100 },
    { site: "(anonymous) (native):0", bytes: 50 },
    { site: "(root) (native):0", bytes: 0 },
  ]);
});

Deno.test("allocationSites: packages by their path under node_modules, runtime files as named", () => {
  const head = node("(root)", "", -1, 0, [
    node("compose", `${root}node_modules/.deno/hono@4/node_modules/hono/dist/compose.js`, 3, 10),
    node("set", "ext:deno_fetch/20_headers.js", 0, 20),
  ]);
  assert.deepEqual(allocationSites(head).map((s) => s.site), [
    "set ext:deno_fetch/20_headers.js:1",
    "compose hono/dist/compose.js:4",
    "(root) (native):0",
  ]);
});
