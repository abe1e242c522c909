import assert from "node:assert/strict";
import { hasLimits, Scope } from "./scope.ts";

Deno.test("scope: models and expiry alone are no limits to count", () => {
  assert.equal(hasLimits(null), false);
  assert.equal(hasLimits({}), false);
  assert.equal(hasLimits({ models: ["x"], expiresAt: 1 }), false);
  assert.equal(hasLimits({ rpm: 1 }), true);
  assert.equal(hasLimits({ tpm: 1 }), true);
  assert.equal(hasLimits({ maxParallel: 1 }), true);
  assert.equal(hasLimits({ budgetUsd: 0 }), true);
});

Deno.test("scope: align makes and resizes windows; a removed budget is forgotten", () => {
  const scope = new Scope("team", "research");
  scope.align({ rpm: 5, tpm: 100, budgetUsd: 1 });
  const tracker = scope.budget;
  assert.equal(scope.requests?.limit, 5);
  assert.ok(scope.tokens);
  assert.ok(tracker);
  scope.align({ rpm: 2, tpm: 100, budgetUsd: 2 });
  assert.equal(scope.requests?.limit, 2);
  assert.equal(scope.budget, tracker, "a budget edit keeps the loaded spend");
  scope.align({ rpm: 2 });
  assert.equal(scope.budget, null);
  scope.align({ budgetUsd: 2 });
  assert.notEqual(scope.budget, tracker, "added again: loaded afresh");
  assert.equal(scope.label, 'team "research"');
});

Deno.test("scope: views and idleness", () => {
  const scope = new Scope("key", "key_a");
  const policy = { rpm: 2, tpm: 1_000 };
  scope.align(policy);
  assert.ok(scope.idle(0));
  scope.requests?.push(0);
  scope.tokens?.add(0, 300);
  assert.deepEqual(scope.requestView(policy, 1_000), {
    scope: "key",
    limit: 2,
    remaining: 1,
    resetAt: 60_000,
  });
  assert.equal(scope.tokenView(policy, 1_000)?.remaining, 700);
  assert.equal(scope.requestView({}, 1_000), null);
  assert.equal(scope.idle(1_000), false);
  assert.equal(scope.idle(60_000), true);
  scope.inFlight = 1;
  assert.equal(scope.idle(60_000), false);
});
