import assert from "node:assert/strict";
import type { Warning } from "../../core/convert.ts";
import type { ReasoningConfig } from "../../core/request.ts";
import { encodeReasoning, encodeToolChoice, encodeTools } from "./encode_options.ts";
import { coreRequest } from "./testing.ts";

Deno.test("encodeTools maps function, custom and builtin tools", () => {
  const warnings: Warning[] = [];
  const tools = encodeTools(
    [
      {
        type: "function",
        name: "get",
        description: "Gets",
        parameters: { type: "object", properties: {} },
        strict: true,
      },
      { type: "function", name: "bare", parameters: {} },
      { type: "custom", name: "apply_patch", description: "Patch", format: { type: "grammar" } },
      {
        type: "builtin",
        vendor: "anthropic",
        name: "web_search",
        raw: { type: "web_search_20250305", name: "web_search" },
      },
      {
        type: "builtin",
        vendor: "openai",
        name: "image_generation",
        raw: { type: "image_generation" },
      },
    ],
    warnings,
  );
  assert.deepEqual(tools, [
    {
      name: "get",
      input_schema: { type: "object", properties: {} },
      description: "Gets",
      strict: true,
    },
    { name: "bare", input_schema: { type: "object", properties: {} } },
    {
      name: "apply_patch",
      input_schema: {
        type: "object",
        properties: { input: { type: "string" } },
        required: ["input"],
      },
      description: "Patch",
    },
    { type: "web_search_20250305", name: "web_search" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["tools.2.format", "tools.4"]);
});

Deno.test("encodeToolChoice maps every choice and the parallel switch", () => {
  const warnings: Warning[] = [];
  const choice = (fields: Parameters<typeof coreRequest>[0]) =>
    encodeToolChoice(coreRequest(fields), 1, warnings);
  assert.equal(choice({}), undefined);
  assert.deepEqual(choice({ toolChoice: { type: "auto" } }), { type: "auto" });
  assert.deepEqual(choice({ toolChoice: { type: "required" } }), { type: "any" });
  assert.deepEqual(choice({ toolChoice: { type: "none" }, parallelToolCalls: false }), {
    type: "none",
  });
  assert.deepEqual(
    choice({ toolChoice: { type: "tool", name: "get" }, parallelToolCalls: false }),
    {
      type: "tool",
      name: "get",
      disable_parallel_tool_use: true,
    },
  );
  assert.deepEqual(choice({ parallelToolCalls: false }), {
    type: "auto",
    disable_parallel_tool_use: true,
  });
  assert.equal(warnings.length, 0);
  assert.equal(
    encodeToolChoice(coreRequest({ toolChoice: { type: "required" } }), 0, warnings),
    undefined,
  );
  assert.deepEqual(warnings.map((w) => w.field), ["toolChoice"]);
});

function reasoning(config: ReasoningConfig, maxTokens = 8000) {
  const warnings: Warning[] = [];
  const value = encodeReasoning(coreRequest({ reasoning: config }), maxTokens, warnings);
  return { value, fields: warnings.map((w) => w.field) };
}

Deno.test("encodeReasoning maps modes and efforts", () => {
  assert.deepEqual(encodeReasoning(coreRequest(), 100, []), {});
  assert.deepEqual(reasoning({ mode: "disabled" }).value, { thinking: { type: "disabled" } });
  assert.deepEqual(reasoning({ mode: "adaptive", effort: "none" }).value, {
    thinking: { type: "disabled" },
  });
  assert.deepEqual(reasoning({ mode: "adaptive", effort: "high", display: "omitted" }).value, {
    thinking: { type: "adaptive", display: "omitted" },
    effort: "high",
  });
  assert.deepEqual(reasoning({ mode: "adaptive", effort: "xhigh" }).value.effort, "xhigh");
  assert.deepEqual(reasoning({ mode: "adaptive", effort: "max" }).value.effort, "max");
  assert.deepEqual(reasoning({ mode: "enabled" }).value, { thinking: { type: "adaptive" } });
  const minimal = reasoning({ mode: "adaptive", effort: "minimal", summary: "auto" });
  assert.deepEqual(minimal.value, { thinking: { type: "adaptive" }, effort: "low" });
  assert.deepEqual(minimal.fields, ["reasoning.summary", "reasoning.effort"]);
});

Deno.test("encodeReasoning fits a budget between 1024 and max_tokens, with warnings", () => {
  assert.deepEqual(reasoning({ mode: "enabled", budgetTokens: 4000 }).value, {
    thinking: { type: "enabled", budget_tokens: 4000 },
  });
  const low = reasoning({ mode: "enabled", budgetTokens: 100 });
  assert.deepEqual(low.value.thinking, { type: "enabled", budget_tokens: 1024 });
  assert.deepEqual(low.fields, ["reasoning.budgetTokens"]);
  const high = reasoning({ mode: "enabled", budgetTokens: 9000, effort: "low" }, 8000);
  assert.deepEqual(high.value, {
    thinking: { type: "enabled", budget_tokens: 7999 },
    effort: "low",
  });
  assert.deepEqual(high.fields, ["reasoning.budgetTokens"]);
  const none = reasoning({ mode: "enabled", budgetTokens: 2000 }, 1000);
  assert.deepEqual(none.value, { thinking: { type: "disabled" } });
  assert.deepEqual(none.fields, ["reasoning.budgetTokens"]);
});
