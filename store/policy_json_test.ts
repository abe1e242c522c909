import assert from "node:assert/strict";
import type { Policy } from "../governance/policy.ts";
import { readPolicy, writePolicy } from "./policy_json.ts";

Deno.test("policy JSON: every field round-trips; {} is no limits", () => {
  const policy: Policy = {
    models: ["gpt-*", "claude-3?"],
    rpm: 60,
    tpm: 10_000,
    maxParallel: 4,
    budgetUsd: 12.5,
    budgetPeriod: "month",
    expiresAt: Date.UTC(2027, 0, 1),
  };
  assert.deepEqual(readPolicy(writePolicy(policy)), policy);
  assert.equal(writePolicy({}), "{}");
  assert.deepEqual(readPolicy("{}"), {});
});

Deno.test("policy JSON: a stored value of the wrong shape fails loudly", () => {
  for (
    const [stored, problem] of [
      ["not json", /is not JSON/],
      ["[]", /is not an object/],
      ["null", /is not an object/],
      ['{"rpm":"60"}', /non-number rpm/],
      ['{"expiresAt":null}', /non-number expiresAt/],
      ['{"models":"gpt-4"}', /models that are not a list of strings/],
      ['{"models":[1]}', /models that are not a list of strings/],
      ['{"budgetPeriod":"year"}', /unknown budgetPeriod/],
    ] as const
  ) {
    assert.throws(() => readPolicy(stored), problem, stored);
  }
});
