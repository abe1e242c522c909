import assert from "node:assert/strict";
import { toolArgumentsOf, toolInputOf } from "./tool_input.ts";

Deno.test("toolInputOf parses function arguments and wraps custom input", () => {
  assert.deepEqual(toolInputOf({ kind: "function", arguments: '{"a":1}' }), { input: { a: 1 } });
  assert.deepEqual(toolInputOf({ kind: "function", arguments: "" }), { input: {} });
  assert.deepEqual(toolInputOf({ kind: "custom", arguments: "*** Begin Patch" }), {
    input: { input: "*** Begin Patch" },
  });
});

Deno.test("toolInputOf reports unusable arguments", () => {
  assert.match(
    toolInputOf({ kind: "function", arguments: "{oops" }).problem ?? "",
    /not valid JSON/,
  );
  assert.match(
    toolInputOf({ kind: "function", arguments: "[1]" }).problem ?? "",
    /not a JSON object/,
  );
});

Deno.test("toolArgumentsOf serializes input and unwraps custom tools", () => {
  assert.equal(toolArgumentsOf({ a: 1 }, "function"), '{"a":1}');
  assert.equal(toolArgumentsOf({ input: "raw text" }, "custom"), "raw text");
  assert.equal(toolArgumentsOf({ other: 1 }, "custom"), '{"other":1}');
  assert.equal(toolArgumentsOf(undefined, "function"), "{}");
});
