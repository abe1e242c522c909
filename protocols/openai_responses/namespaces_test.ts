import assert from "node:assert/strict";
import { flattenNamespaced, namespaceRestorer } from "./namespaces.ts";
import { coreRequest } from "./test_util.ts";

Deno.test("flattenNamespaced: Codex namespaces already end with the separator", () => {
  assert.equal(flattenNamespaced("mcp__docs__", "search"), "mcp__docs__search");
  assert.equal(flattenNamespaced("crm", "find"), "crm__find");
});

Deno.test("namespaceRestorer: flat names of namespaced tools only", () => {
  const restore = namespaceRestorer(coreRequest({
    tools: [
      { type: "function", name: "mcp__docs__search", parameters: {}, namespace: "mcp__docs__" },
      { type: "custom", name: "crm__note", namespace: "crm" },
      { type: "function", name: "plain", parameters: {} },
    ],
  }));
  assert.deepEqual(restore("mcp__docs__search"), { namespace: "mcp__docs__", name: "search" });
  assert.deepEqual(restore("crm__note"), { namespace: "crm", name: "note" });
  assert.deepEqual(restore("plain"), { name: "plain" });
  assert.deepEqual(restore("unknown"), { name: "unknown" });
});
