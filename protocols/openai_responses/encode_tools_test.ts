import assert from "node:assert/strict";
import type { CoreTool } from "../../core/request.ts";
import { encodeToolChoice, encodeTools } from "./encode_tools.ts";
import { localShellFunctionTool } from "./local_shell.ts";

const tools: CoreTool[] = [
  { type: "function", name: "f", description: "d", parameters: { type: "object" } },
  { type: "function", name: "g", parameters: {}, strict: true },
  { type: "custom", name: "p", format: { type: "text" } },
  localShellFunctionTool(),
  { type: "builtin", vendor: "openai", name: "web_search", raw: { type: "web_search" } },
  { type: "builtin", vendor: "anthropic", name: "web_fetch", raw: { type: "web_fetch_20250910" } },
];
const upper = (name: string) => name.toUpperCase();

Deno.test("encodeTools: strict defaults to false; native and foreign tools", () => {
  const { value, warnings } = encodeTools(tools, upper);
  assert.deepEqual(value, [
    {
      type: "function",
      name: "F",
      parameters: { type: "object" },
      strict: false,
      description: "d",
    },
    { type: "function", name: "G", parameters: {}, strict: true },
    { type: "custom", name: "P", format: { type: "text" } },
    { type: "local_shell" },
    { type: "web_search" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["tools.5"]);
});

Deno.test("encodeToolChoice: each tool type's form", () => {
  const choice = (name: string) => encodeToolChoice({ type: "tool", name }, tools, upper);
  assert.deepEqual(choice("f").value, { type: "function", name: "F" });
  assert.deepEqual(choice("p").value, { type: "custom", name: "P" });
  assert.deepEqual(choice("web_search").value, { type: "web_search" });
  assert.equal(choice("local_shell").value, "required");
  assert.equal(choice("local_shell").warnings.length, 1);
  assert.equal(encodeToolChoice({ type: "none" }, tools, upper).value, "none");
  assert.equal(encodeToolChoice(undefined, tools, upper).value, undefined);
});
