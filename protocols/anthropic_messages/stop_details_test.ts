import assert from "node:assert/strict";
import { stopDetailsFromAnthropic, stopDetailsToAnthropic } from "./stop_details.ts";

Deno.test("stopDetailsFromAnthropic keeps explanation and category, warns about the rest", () => {
  assert.deepEqual(stopDetailsFromAnthropic(null), { value: undefined, warnings: [] });
  assert.deepEqual(stopDetailsFromAnthropic(undefined), { value: undefined, warnings: [] });
  const refusal = stopDetailsFromAnthropic({
    type: "refusal",
    category: "bio",
    explanation: "Blocked.",
    recommended_model: "claude-x",
  });
  assert.deepEqual(refusal.value, { category: "bio", explanation: "Blocked." });
  assert.deepEqual(refusal.warnings.map((w) => w.field), ["stop_details.recommended_model"]);
  assert.deepEqual(
    stopDetailsFromAnthropic({ type: "refusal", category: null, explanation: null }),
    { value: undefined, warnings: [] },
  );
  const other = stopDetailsFromAnthropic({ type: "pause", reason: "x" }, "delta.stop_details");
  assert.equal(other.value, undefined);
  assert.deepEqual(other.warnings.map((w) => w.field), ["delta.stop_details.type"]);
});

Deno.test("stopDetailsToAnthropic writes a refusal object with nulls, or null", () => {
  assert.equal(stopDetailsToAnthropic(undefined), null);
  assert.deepEqual(stopDetailsToAnthropic({ explanation: "No." }), {
    type: "refusal",
    category: null,
    explanation: "No.",
  });
  assert.deepEqual(stopDetailsToAnthropic({ category: "cyber", explanation: "No." }), {
    type: "refusal",
    category: "cyber",
    explanation: "No.",
  });
});
