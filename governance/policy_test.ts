import assert from "node:assert/strict";
import {
  applyPolicyPatch,
  budgetStatus,
  mayCall,
  modelAllowed,
  parseExpiry,
  periodEnd,
  periodStart,
  policyToWire,
} from "./policy.ts";

Deno.test("modelAllowed: exact ids and * / ? globs; no list allows everything", () => {
  assert.equal(modelAllowed(undefined, "anything"), true);
  assert.equal(modelAllowed([], "gpt-5"), false);
  assert.equal(modelAllowed(["gpt-5*"], "gpt-5.5-large"), true);
  assert.equal(modelAllowed(["gpt-5*"], "gpt-4o"), false);
  assert.equal(modelAllowed(["claude-?-5"], "claude-x-5"), true);
  assert.equal(modelAllowed(["gpt-5.5"], "gpt-5x5"), false, "a dot is literal");
});

Deno.test("mayCall: every policy that lists models must allow one of the model's names", () => {
  const key = { models: ["claude-*"] };
  const team = { models: ["claude-opus"] };
  assert.equal(mayCall([key, null], ["claude-sonnet-5"]), true);
  assert.equal(mayCall([key, team], ["claude-sonnet-5", "claude-sonnet"]), false);
  assert.equal(mayCall([key, team], ["claude-opus-5-5", "claude-opus"]), true, "by its alias");
  assert.equal(mayCall([{}, null], ["gpt-5"]), true);
});

Deno.test("periods: UTC calendar boundaries, weeks from Monday", () => {
  const thursday = Date.UTC(2026, 0, 15, 12, 30);
  assert.equal(periodStart("day", thursday), Date.UTC(2026, 0, 15));
  assert.equal(periodEnd("day", thursday), Date.UTC(2026, 0, 16));
  assert.equal(periodStart("week", thursday), Date.UTC(2026, 0, 12));
  assert.equal(periodEnd("week", thursday), Date.UTC(2026, 0, 19));
  assert.equal(periodStart("week", Date.UTC(2026, 0, 18, 23)), Date.UTC(2026, 0, 12), "Sunday");
  assert.equal(periodStart("month", Date.UTC(2026, 11, 31, 23)), Date.UTC(2026, 11, 1));
  assert.equal(periodEnd("month", Date.UTC(2026, 11, 31, 23)), Date.UTC(2027, 0, 1));
  assert.equal(periodStart("total", thursday), 0);
  assert.equal(periodEnd("total", thursday), null);
});

Deno.test("parseExpiry: durations from now, dates and date-times in UTC, unix seconds", () => {
  const now = Date.UTC(2026, 10, 25);
  assert.equal(parseExpiry("30d", now), now + 30 * 86_400_000);
  assert.equal(parseExpiry("12h", now), now + 12 * 3_600_000);
  assert.equal(parseExpiry("90m", now), now + 90 * 60_000);
  assert.equal(parseExpiry("2027-01-01", now), Date.UTC(2027, 0, 1));
  assert.equal(parseExpiry("2027-01-01T12:00", now), Date.UTC(2027, 0, 1, 12));
  assert.equal(parseExpiry(1_800_000_000, now), 1_800_000_000_000);
  assert.throws(() => parseExpiry("next week", now), /use a duration \(30d, 12h, 90m\)/);
});

Deno.test("applyPolicyPatch: a value replaces, null clears, absent keeps; a budget has a period", () => {
  const base = { rpm: 10, tpm: 100, budgetUsd: 5, budgetPeriod: "day" as const };
  const now = Date.UTC(2026, 10, 25);
  assert.deepEqual(applyPolicyPatch(base, { rpm: 20, tpm: null }, now), {
    rpm: 20,
    budgetUsd: 5,
    budgetPeriod: "day",
  });
  assert.deepEqual(applyPolicyPatch(base, { budget_usd: null }, now), { rpm: 10, tpm: 100 });
  assert.deepEqual(applyPolicyPatch({}, { budget_usd: 3, expires_at: "1d" }, now), {
    budgetUsd: 3,
    budgetPeriod: "total",
    expiresAt: now + 86_400_000,
  });
});

Deno.test("policyToWire and budgetStatus", () => {
  const policy = { models: ["a*"], maxParallel: 2, budgetUsd: 10, expiresAt: Date.UTC(2027, 0, 1) };
  assert.deepEqual(policyToWire(policy), {
    models: ["a*"],
    max_parallel: 2,
    budget_usd: 10,
    budget_period: "total",
    expires_at: "2027-01-01T00:00:00.000Z",
  });
  const status = budgetStatus({ budgetUsd: 10, budgetPeriod: "month" }, 12, Date.UTC(2026, 1, 3));
  assert.deepEqual(status, {
    budgetUsd: 10,
    period: "month",
    periodStart: Date.UTC(2026, 1, 1),
    resetsAt: Date.UTC(2026, 2, 1),
    spentUsd: 12,
    remainingUsd: 0,
  });
  assert.equal(budgetStatus({}, 1, 0), null);
});
