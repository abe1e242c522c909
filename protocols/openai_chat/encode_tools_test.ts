import assert from "node:assert/strict";
import { shortenToolName } from "../tool_names.ts";
import {
  customInputDescription,
  encodeResponseFormat,
  encodeToolChoice,
  encodeTools,
} from "./encode_tools.ts";

Deno.test("encodeTools wraps custom tools, shortens names and drops hosted tools", () => {
  const long = "a".repeat(80);
  const { value, warnings } = encodeTools([
    {
      type: "function",
      name: long,
      description: "d",
      parameters: { type: "object" },
      strict: true,
    },
    { type: "custom", name: "apply_patch", description: "patch files" },
    { type: "builtin", vendor: "openai", name: "web_search", raw: { type: "web_search" } },
  ]);
  assert.deepEqual(value, [
    {
      type: "function",
      function: {
        name: shortenToolName(long),
        description: "d",
        parameters: { type: "object" },
        strict: true,
      },
    },
    {
      type: "function",
      function: {
        name: "apply_patch",
        description: "patch files",
        parameters: {
          type: "object",
          properties: {
            input: { type: "string", description: "The raw tool input, as free-form text." },
          },
          required: ["input"],
          additionalProperties: false,
        },
      },
    },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["tools.2"]);
});

Deno.test("customInputDescription quotes a grammar", () => {
  assert.match(
    customInputDescription({ type: "grammar", syntax: "lark", definition: "start: /x/" }),
    /lark grammar:\nstart: \/x\//,
  );
});

Deno.test("encodeToolChoice and encodeResponseFormat", () => {
  assert.equal(encodeToolChoice({ type: "none" }), "none");
  assert.deepEqual(encodeToolChoice({ type: "tool", name: "f" }), {
    type: "function",
    function: { name: "f" },
  });
  assert.deepEqual(
    encodeResponseFormat({
      type: "json_schema",
      name: "n",
      schema: { type: "object" },
      strict: true,
    }),
    { type: "json_schema", json_schema: { name: "n", schema: { type: "object" }, strict: true } },
  );
  assert.deepEqual(encodeResponseFormat({ type: "text" }), { type: "text" });
});
