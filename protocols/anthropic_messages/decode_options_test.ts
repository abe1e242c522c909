import assert from "node:assert/strict";
import type { Warning } from "../../core/convert.ts";
import {
  decodeReasoning,
  decodeResponseFormat,
  decodeToolChoice,
  decodeTools,
  warnOutputConfig,
} from "./decode_options.ts";
import type { MessagesRequest } from "./schemas.ts";

const base: MessagesRequest = { model: "m", max_tokens: 10, messages: [] };

Deno.test("decodeTools maps custom tools to function tools and typed tools to builtins", () => {
  const warnings: Warning[] = [];
  const tools = decodeTools(
    [
      {
        name: "Read",
        description: "Reads",
        input_schema: { type: "object", properties: {} },
        strict: true,
        eager_input_streaming: true,
      },
      { type: "custom", name: "Write", input_schema: { type: "object" } },
      { type: "web_search_20250305", name: "web_search", max_uses: 3 },
      { type: "bash_20250124", name: "bash" },
    ],
    warnings,
  );
  assert.deepEqual(tools, [
    {
      type: "function",
      name: "Read",
      description: "Reads",
      parameters: { type: "object", properties: {} },
      strict: true,
    },
    { type: "function", name: "Write", parameters: { type: "object" } },
    {
      type: "builtin",
      vendor: "anthropic",
      name: "web_search",
      raw: { type: "web_search_20250305", name: "web_search", max_uses: 3 },
    },
    {
      type: "builtin",
      vendor: "anthropic",
      name: "bash",
      raw: { type: "bash_20250124", name: "bash" },
    },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["tools.0.eager_input_streaming"]);
  assert.deepEqual(decodeTools(undefined, warnings), []);
});

Deno.test("decodeTools rejects a custom tool without input_schema", () => {
  assert.throws(() => decodeTools([{ name: "x" }], []), /tools\.0\.input_schema/);
});

Deno.test("decodeToolChoice maps every choice and the parallel switch", () => {
  assert.deepEqual(decodeToolChoice(undefined), {});
  assert.deepEqual(decodeToolChoice({ type: "auto" }), { toolChoice: { type: "auto" } });
  assert.deepEqual(decodeToolChoice({ type: "any", disable_parallel_tool_use: true }), {
    toolChoice: { type: "required" },
    parallelToolCalls: false,
  });
  assert.deepEqual(decodeToolChoice({ type: "none" }), { toolChoice: { type: "none" } });
  assert.deepEqual(
    decodeToolChoice({ type: "tool", name: "Read", disable_parallel_tool_use: false }),
    {
      toolChoice: { type: "tool", name: "Read" },
    },
  );
});

Deno.test("decodeReasoning maps thinking types and effort", () => {
  const warnings: Warning[] = [];
  assert.equal(decodeReasoning(base, warnings), undefined);
  assert.deepEqual(
    decodeReasoning({
      ...base,
      thinking: { type: "enabled", budget_tokens: 2048, display: "summarized" },
    }, warnings),
    { mode: "enabled", budgetTokens: 2048, display: "summarized" },
  );
  assert.deepEqual(decodeReasoning({ ...base, thinking: { type: "disabled" } }, warnings), {
    mode: "disabled",
  });
  assert.deepEqual(decodeReasoning({ ...base, output_config: { effort: "max" } }, warnings), {
    mode: "adaptive",
    effort: "max",
  });
  assert.deepEqual(
    decodeReasoning(
      { ...base, thinking: { type: "adaptive" }, output_config: { effort: "xhigh" } },
      warnings,
    ),
    { mode: "adaptive", effort: "xhigh" },
  );
  assert.equal(warnings.length, 0);
  assert.deepEqual(decodeReasoning({ ...base, thinking: { type: "between_tools" } }, warnings), {
    mode: "adaptive",
  });
  assert.deepEqual(warnings.map((w) => w.field), ["thinking.type"]);
});

Deno.test("decodeResponseFormat reads output_config.format and the older output_format", () => {
  const schema = { type: "object", properties: { a: { type: "string" } } };
  const warnings: Warning[] = [];
  assert.equal(decodeResponseFormat(base, warnings), undefined);
  assert.deepEqual(
    decodeResponseFormat(
      { ...base, output_config: { format: { type: "json_schema", schema } } },
      warnings,
    ),
    { type: "json_schema", name: "output", schema },
  );
  assert.deepEqual(
    decodeResponseFormat({ ...base, output_format: { type: "json_schema", schema } }, warnings),
    { type: "json_schema", name: "output", schema },
  );
  assert.equal(warnings.length, 0);
  decodeResponseFormat(
    {
      ...base,
      output_config: { format: { type: "json_schema", schema } },
      output_format: { type: "json_schema", schema: {} },
    },
    warnings,
  );
  assert.deepEqual(warnings.map((w) => w.field), ["output_format"]);
});

Deno.test("warnOutputConfig warns about keys it does not translate", () => {
  const warnings: Warning[] = [];
  warnOutputConfig(
    { ...base, output_config: { effort: "low", task_budget: { total: 5 } } },
    warnings,
  );
  assert.deepEqual(warnings.map((w) => w.field), ["output_config.task_budget"]);
});
