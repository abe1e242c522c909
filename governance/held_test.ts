import assert from "node:assert/strict";
import { emptyUsage } from "../core/response.ts";
import { HeldAdmission, windowTokens } from "./held.ts";
import { Scope } from "./scope.ts";
import { spentOf } from "./testing.ts";

Deno.test("held: tpm counts input + output as the ledger records them", () => {
  assert.equal(
    windowTokens(spentOf({ inputTokens: 100, outputTokens: 50, cacheReadTokens: 80 }, 0)),
    150,
  );
});

Deno.test("held: release settles once; no watch without a budget", () => {
  const scope = new Scope("key", "key_a");
  const policy = { maxParallel: 3, tpm: 1_000 };
  scope.align(policy);
  scope.inFlight = 1;
  const entry = scope.tokens!.add(0, 400);
  const held = new HeldAdmission(
    { scope, policy, entry, budget: null },
    null,
    undefined,
    400,
    () => 5,
  );
  assert.equal(held.watch, undefined);
  assert.equal(held.headers, undefined);
  assert.equal(held.inputEstimate, 400);
  held.release(spentOf({ inputTokens: 300, outputTokens: 200 }, 0));
  held.release(spentOf({ inputTokens: 300, outputTokens: 200 }, 0));
  assert.equal(scope.inFlight, 0);
  assert.equal(scope.lastUsed, 5);
  assert.equal(scope.tokens!.used(5), 500);
});

Deno.test("held: the watch records spend and stops after release", async () => {
  const scope = new Scope("key", "key_a");
  const policy = { budgetUsd: 1 };
  scope.align(policy);
  const tracker = scope.budget!;
  await tracker.load("total", 0, () => Promise.resolve(0));
  scope.inFlight = 1;
  const budget = { tracker, hold: tracker.hold(0.5) };
  const held = new HeldAdmission({ scope, policy, entry: null, budget }, null, {}, 0, () => 0);
  assert.equal(held.watch?.({ usage: emptyUsage(), cost: 0.9 }), null);
  assert.equal(held.watch?.({ usage: emptyUsage(), cost: 1 })?.kind, "quota");
  held.release(spentOf({}, 1));
  assert.equal(held.watch?.({ usage: emptyUsage(), cost: 2 }), null);
  assert.equal(tracker.settled, 1);
});
