/**
 * Core reasoning settings → chat `reasoning_effort`.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { ReasoningConfig, ReasoningEffort } from "../../core/request.ts";

/** Thinking budgets (Anthropic `budget_tokens`) → effort: up to 2048 tokens is `low`, up to
 * 16384 `medium`, more `high`. */
export function effortOfBudget(budgetTokens: number): ReasoningEffort {
  if (budgetTokens <= 2048) return "low";
  if (budgetTokens <= 16384) return "medium";
  return "high";
}

/** Levels OpenAI-compatible servers know; `xhigh` and `max` are OpenAI's own. */
const COMPAT_EFFORTS: ReadonlySet<ReasoningEffort> = new Set([
  "none",
  "minimal",
  "low",
  "medium",
  "high",
]);

/** The `reasoning_effort` to send, or undefined to leave the model's default. `disabled` is
 * `none` (OpenAI's off switch, which Ollama honours too); adaptive thinking without an effort
 * keeps the default; a budget maps by `effortOfBudget`. OpenAI takes every core level as is;
 * compat servers get `xhigh` and `max` as `high`. Summaries, display and encrypted reasoning
 * have no chat counterpart. */
export function encodeReasoningEffort(
  config: ReasoningConfig,
  compat: boolean,
): Converted<ReasoningEffort | undefined> {
  const warnings: Warning[] = [];
  const drop = (field: string, why: string) => warnings.push({ field, message: why });
  if (config.summary !== undefined) {
    drop("reasoning.summary", "Chat Completions returns no reasoning summaries.");
  }
  if (config.display !== undefined) {
    drop("reasoning.display", "Chat Completions has no reasoning display setting.");
  }
  if (config.includeEncrypted) {
    drop("reasoning.includeEncrypted", "Chat Completions returns no encrypted reasoning.");
  }
  let effort: ReasoningEffort | undefined;
  if (config.mode === "disabled") effort = "none";
  else if (config.effort !== undefined) effort = config.effort;
  else if (config.mode === "enabled" && config.budgetTokens !== undefined) {
    effort = effortOfBudget(config.budgetTokens);
  }
  if (compat && effort !== undefined && !COMPAT_EFFORTS.has(effort)) {
    drop("reasoning.effort", `"${effort}" is sent as "high" to an OpenAI-compatible server.`);
    effort = "high";
  }
  return { value: effort, warnings };
}
