import assert from "node:assert/strict";
import { stopReasonFromAnthropic, stopReasonToAnthropic } from "./map_stop_reason.ts";
import type { StopReason } from "../../core/response.ts";

Deno.test("stopReasonFromAnthropic maps every Anthropic value one to one", () => {
  const cases: Array<[string, StopReason]> = [
    ["end_turn", "end_turn"],
    ["max_tokens", "max_tokens"],
    ["tool_use", "tool_use"],
    ["stop_sequence", "stop_sequence"],
    ["refusal", "refusal"],
    ["pause_turn", "pause_turn"],
    ["model_context_window_exceeded", "context_window_exceeded"],
  ];
  for (const [wire, core] of cases) assert.equal(stopReasonFromAnthropic(wire), core, wire);
});

Deno.test("stopReasonFromAnthropic leaves unknown and absent values to the caller", () => {
  assert.equal(stopReasonFromAnthropic("something_new"), undefined);
  assert.equal(stopReasonFromAnthropic("toString"), undefined);
  assert.equal(stopReasonFromAnthropic(null), undefined);
  assert.equal(stopReasonFromAnthropic(undefined), undefined);
});

Deno.test("stopReasonToAnthropic maps every core value", () => {
  const cases: Array<[StopReason, string]> = [
    ["end_turn", "end_turn"],
    ["max_tokens", "max_tokens"],
    ["tool_use", "tool_use"],
    ["stop_sequence", "stop_sequence"],
    ["refusal", "refusal"],
    ["pause_turn", "pause_turn"],
    ["content_filter", "refusal"],
    ["context_window_exceeded", "model_context_window_exceeded"],
  ];
  for (const [core, wire] of cases) assert.equal(stopReasonToAnthropic(core), wire, core);
});
