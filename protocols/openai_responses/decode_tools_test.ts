import assert from "node:assert/strict";
import { decodeToolChoice, decodeTools } from "./decode_tools.ts";
import { localShellFunctionTool } from "./local_shell.ts";

Deno.test("decodeTools: function, custom, namespace, local_shell and hosted tools", () => {
  const { value, warnings } = decodeTools([
    { type: "function", name: "f", strict: true, parameters: { type: "object" } },
    {
      type: "custom",
      name: "apply_patch",
      description: "Patch",
      format: { type: "grammar", syntax: "lark", definition: "start: x" },
    },
    {
      type: "namespace",
      name: "crm",
      tools: [
        { type: "function", name: "find" },
        { type: "custom", name: "note" },
        { type: "web_search" },
      ],
    },
    { type: "local_shell" },
    { type: "image_generation", quality: "low" },
  ]);
  assert.deepEqual(value, [
    { type: "function", name: "f", parameters: { type: "object" }, strict: true },
    {
      type: "custom",
      name: "apply_patch",
      description: "Patch",
      format: { type: "grammar", syntax: "lark", definition: "start: x" },
    },
    {
      type: "function",
      name: "crm__find",
      parameters: { type: "object", properties: {} },
      namespace: "crm",
    },
    { type: "custom", name: "crm__note", namespace: "crm" },
    localShellFunctionTool(),
    {
      type: "builtin",
      vendor: "openai",
      name: "image_generation",
      raw: { type: "image_generation", quality: "low" },
    },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["tools.2.tools.2.type"]);
});

Deno.test("decodeTools: a flattened name that collides is reported", () => {
  const { warnings } = decodeTools([
    { type: "function", name: "a__b" },
    { type: "namespace", name: "a", tools: [{ type: "function", name: "b" }] },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["tools"]);
});

Deno.test("decodeToolChoice: every form", () => {
  assert.deepEqual(decodeToolChoice("required").value, { type: "required" });
  assert.equal(decodeToolChoice(undefined).value, undefined);
  assert.deepEqual(decodeToolChoice({ type: "function", name: "f" }).value, {
    type: "tool",
    name: "f",
  });
  assert.deepEqual(decodeToolChoice({ type: "custom", name: "apply_patch" }).value, {
    type: "tool",
    name: "apply_patch",
  });
  assert.deepEqual(
    decodeToolChoice({ type: "function", name: "search", namespace: "mcp__d__" }).value,
    {
      type: "tool",
      name: "mcp__d__search",
    },
  );
  assert.deepEqual(decodeToolChoice({ type: "web_search_preview" }).value, {
    type: "tool",
    name: "web_search_preview",
  });
  const allowed = decodeToolChoice({ type: "allowed_tools", mode: "required", tools: [] });
  assert.deepEqual(allowed.value, { type: "required" });
  assert.deepEqual(allowed.warnings.map((w) => w.field), ["tool_choice.tools"]);
  const mcp = decodeToolChoice({ type: "mcp", server_label: "s" });
  assert.deepEqual(mcp.value, { type: "required" });
  assert.equal(mcp.warnings.length, 1);
});
