import assert from "node:assert/strict";
import { shortenToolName } from "../tool_names.ts";
import { coreRequest } from "./testing.ts";
import { upstreamToolResolver } from "./upstream_tools.ts";

Deno.test("upstreamToolResolver restores names and tells custom tools apart", () => {
  const long = "mcp__a_server_with_a_rather_long_name__and_a_tool_with_a_long_name_too";
  const resolve = upstreamToolResolver(coreRequest({
    tools: [
      { type: "function", name: long, parameters: {} },
      { type: "custom", name: "apply_patch" },
    ],
  }));
  assert.deepEqual(resolve(shortenToolName(long)), { name: long, kind: "function" });
  assert.deepEqual(resolve("apply_patch"), { name: "apply_patch", kind: "custom" });
  assert.deepEqual(resolve("unknown"), { name: "unknown", kind: "function" });
});
