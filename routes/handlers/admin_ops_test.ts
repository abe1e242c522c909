import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { applyPolicyInput, policyPart } from "./admin_ops.ts";

const NOW = Date.parse("2026-11-01T00:00:00Z");

Deno.test("policyPart keeps only the policy fields of a body", () => {
  assert.deepEqual(policyPart({ name: "a", team: null, rpm: 5, budget_usd: null, admin: true }), {
    rpm: 5,
    budget_usd: null,
  });
});

Deno.test("applyPolicyInput: values replace, null clears, absent stays", () => {
  const base = { rpm: 5, tpm: 100, budgetUsd: 10, budgetPeriod: "day" as const };
  assert.deepEqual(applyPolicyInput(base, { rpm: 6, tpm: null }, NOW), {
    rpm: 6,
    budgetUsd: 10,
    budgetPeriod: "day",
  });
  assert.deepEqual(applyPolicyInput(base, { budget_usd: null }, NOW), { rpm: 5, tpm: 100 });
  assert.deepEqual(applyPolicyInput({}, { expires_at: "2d" }, NOW), {
    expiresAt: NOW + 2 * 86_400_000,
  });
  assert.deepEqual(applyPolicyInput(base, { budget_period: "week" }, NOW).budgetPeriod, "week");
});

Deno.test("applyPolicyInput: a 400 naming the field for a bad expiry or a period without budget", () => {
  const refused = (fn: () => unknown, param: string, message: RegExp) =>
    assert.throws(
      fn,
      (error) =>
        error instanceof GatewayError && error.status === 400 && error.param === param &&
        message.test(error.message),
    );
  refused(() => applyPolicyInput({}, { expires_at: "someday" }, NOW), "expires_at", /not a time/);
  refused(
    () => applyPolicyInput({}, { budget_period: "month" }, NOW),
    "budget_period",
    /needs a budget: set budget_usd/,
  );
  refused(
    () => applyPolicyInput({ budgetUsd: 1 }, { budget_usd: null, budget_period: "day" }, NOW),
    "budget_period",
    /needs a budget/,
  );
});
