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

Deno.test("held: quiet is true exactly while the watch would neither refuse nor raise the hold", async () => {
  const scope = new Scope("key", "key_a");
  const policy = { budgetUsd: 1 };
  scope.align(policy);
  const tracker = scope.budget!;
  await tracker.load("total", 0, () => Promise.resolve(0.2));
  scope.inFlight = 2;
  const other = tracker.hold(0.3);
  const budget = { tracker, hold: tracker.hold(0.4) };
  const held = new HeldAdmission({ scope, policy, entry: null, budget }, null, {}, 0, () => 0);
  const flowing = (cost: number) => ({ usage: emptyUsage(), cost });
  // Up to its reservation (0.4) the hold does not grow; 0.2 + 0.3 + 0.4 stays under $1.
  assert.equal(held.quiet?.(0.4), true);
  assert.equal(held.quiet?.(0.41), false, "past the reservation the hold must grow");
  assert.equal(tracker.held, 0.7, "asking recorded nothing");
  assert.equal(held.watch?.(flowing(0.45)), null);
  assert.equal(held.quiet?.(0.45), true, "at what it already holds");
  // The other request spends past its reservation: now 0.2 + 0.55 + this one's cost ≥ $1 at 0.25.
  tracker.flow(other, 0.55);
  assert.equal(held.quiet?.(0.2), false, "the watch would refuse at its actual 0.45");
  assert.equal(held.watch?.(flowing(0.2))?.kind, "quota");
  tracker.release(other, 0);
  held.release(spentOf({}, 0.1));
  assert.equal(held.quiet?.(5), true, "released: the watch says nothing");
});
