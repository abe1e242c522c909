import assert from "node:assert/strict";
import { effortOfBudget, encodeReasoningEffort } from "./map_reasoning.ts";

Deno.test("effortOfBudget maps thinking budgets at 2048 and 16384", () => {
  assert.equal(effortOfBudget(1024), "low");
  assert.equal(effortOfBudget(2048), "low");
  assert.equal(effortOfBudget(2049), "medium");
  assert.equal(effortOfBudget(16384), "medium");
  assert.equal(effortOfBudget(16385), "high");
});

Deno.test("encodeReasoningEffort: disabled is none, effort wins, adaptive keeps the default", () => {
  assert.equal(encodeReasoningEffort({ mode: "disabled" }, false).value, "none");
  assert.equal(encodeReasoningEffort({ mode: "adaptive", effort: "low" }, false).value, "low");
  assert.equal(
    encodeReasoningEffort({ mode: "enabled", budgetTokens: 32000, effort: "minimal" }, false)
      .value,
    "minimal",
  );
  assert.equal(
    encodeReasoningEffort({ mode: "enabled", budgetTokens: 8000 }, false).value,
    "medium",
  );
  assert.equal(encodeReasoningEffort({ mode: "adaptive" }, false).value, undefined);
});

Deno.test("encodeReasoningEffort sends xhigh and max to OpenAI, high to compat servers", () => {
  assert.deepEqual(encodeReasoningEffort({ mode: "adaptive", effort: "max" }, false), {
    value: "max",
    warnings: [],
  });
  const compat = encodeReasoningEffort({ mode: "adaptive", effort: "xhigh" }, true);
  assert.equal(compat.value, "high");
  assert.equal(compat.warnings[0]?.field, "reasoning.effort");
});

Deno.test("encodeReasoningEffort reports summary, display and encrypted reasoning", () => {
  const result = encodeReasoningEffort(
    { mode: "adaptive", summary: "auto", display: "omitted", includeEncrypted: true },
    false,
  );
  assert.deepEqual(result.warnings.map((w) => w.field), [
    "reasoning.summary",
    "reasoning.display",
    "reasoning.includeEncrypted",
  ]);
});
