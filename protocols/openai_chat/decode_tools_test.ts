import assert from "node:assert/strict";
import { decodeResponseFormat, decodeToolChoice, decodeTools } from "./decode_tools.ts";

Deno.test("decodeTools reads function and custom tools", () => {
  assert.deepEqual(
    decodeTools([
      {
        type: "function",
        function: { name: "get", description: "d", parameters: { type: "object" }, strict: true },
      },
      { type: "function", function: { name: "bare" } },
      { type: "custom", custom: { name: "patch", format: { type: "text" } } },
    ]),
    [
      {
        type: "function",
        name: "get",
        description: "d",
        parameters: { type: "object" },
        strict: true,
      },
      { type: "function", name: "bare", parameters: { type: "object", properties: {} } },
      { type: "custom", name: "patch", format: { type: "text" } },
    ],
  );
});

Deno.test("decodeToolChoice reads every form", () => {
  assert.deepEqual(decodeToolChoice("required").value, { type: "required" });
  assert.deepEqual(decodeToolChoice({ type: "function", function: { name: "f" } }).value, {
    type: "tool",
    name: "f",
  });
  assert.deepEqual(decodeToolChoice({ type: "custom", custom: { name: "g" } }).value, {
    type: "tool",
    name: "g",
  });
  const allowed = decodeToolChoice({
    type: "allowed_tools",
    allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "f" } }] },
  });
  assert.deepEqual(allowed.value, { type: "required" });
  assert.equal(allowed.warnings[0]?.field, "tool_choice.allowed_tools.tools");
});

Deno.test("decodeResponseFormat reads json_schema with its options", () => {
  assert.deepEqual(decodeResponseFormat({ type: "json_object" }), { type: "json_object" });
  assert.deepEqual(
    decodeResponseFormat({
      type: "json_schema",
      json_schema: { name: "out", schema: { type: "object" }, strict: true, description: "x" },
    }),
    {
      type: "json_schema",
      name: "out",
      schema: { type: "object" },
      strict: true,
      description: "x",
    },
  );
});
