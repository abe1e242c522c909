import assert from "node:assert/strict";
import { expandParallelWrapper, isParallelWrapper } from "./parallel_wrapper.ts";
import { coreRequest } from "./test_util.ts";

Deno.test("parallel wrapper: detected only when undeclared", () => {
  assert.equal(isParallelWrapper("multi_tool_use.parallel", coreRequest()), true);
  assert.equal(isParallelWrapper("weather", coreRequest()), false);
  const declared = coreRequest({ tools: [{ type: "function", name: "parallel", parameters: {} }] });
  assert.equal(isParallelWrapper("parallel", declared), false);
});

Deno.test("parallel wrapper: expands into calls, null for other shapes", () => {
  assert.deepEqual(
    expandParallelWrapper(
      "c",
      '{"tool_uses":[{"recipient_name":"functions.a","parameters":{"x":1}},{"recipient_name":"b"}]}',
    ),
    [
      { id: "c_0", name: "a", arguments: '{"x":1}' },
      { id: "c_1", name: "b", arguments: "{}" },
    ],
  );
  assert.equal(expandParallelWrapper("c", "{"), null);
  assert.equal(expandParallelWrapper("c", '{"tool_uses":[]}'), null);
  assert.equal(expandParallelWrapper("c", '{"tool_uses":[{"parameters":{}}]}'), null);
});
