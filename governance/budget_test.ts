import assert from "node:assert/strict";
import { BudgetTracker } from "./budget.ts";

const JAN_15 = Date.UTC(2026, 0, 15, 12);

Deno.test("BudgetTracker: loads the period's settled spend once, shared by concurrent callers", async () => {
  const tracker = new BudgetTracker();
  const starts: number[] = [];
  const loader = (start: number) => {
    starts.push(start);
    return Promise.resolve(3);
  };
  assert.equal(tracker.ready("day", JAN_15), false);
  const a = tracker.load("day", JAN_15, loader);
  const b = tracker.load("day", JAN_15 + 1, loader);
  assert.equal(a, b);
  await a;
  assert.deepEqual(starts, [Date.UTC(2026, 0, 15)]);
  assert.equal(tracker.settled, 3);
  assert.equal(tracker.ready("day", JAN_15), true);
  assert.equal(tracker.end, Date.UTC(2026, 0, 16));
  assert.equal(tracker.ready("day", Date.UTC(2026, 0, 16)), false, "rolled over");
  assert.equal(tracker.ready("month", JAN_15), false, "period edited");
});

Deno.test("BudgetTracker: fits counts settled + holds + the new reservation", async () => {
  const tracker = new BudgetTracker();
  await tracker.load("total", JAN_15, () => Promise.resolve(0.5));
  assert.equal(tracker.fits(0.5, 1), true);
  const hold = tracker.hold(0.25);
  assert.equal(tracker.fits(0.25, 1), true);
  assert.equal(tracker.fits(0.26, 1), false);
  tracker.release(hold, 0.1);
  assert.equal(tracker.held, 0);
  assert.ok(Math.abs(tracker.settled - 0.6) < 1e-12);
  tracker.release(hold, 0.1);
  assert.ok(Math.abs(tracker.settled - 0.6) < 1e-12, "a second release does nothing");
});

Deno.test("BudgetTracker: a hold counts max(reservation, actual); flow counts this one at its actual", async () => {
  const tracker = new BudgetTracker();
  await tracker.load("total", JAN_15, () => Promise.resolve(0));
  const long = tracker.hold(0.4);
  const short = tracker.hold(0.4);
  assert.ok(Math.abs(tracker.flow(long, 0.1) - 0.5) < 1e-12, "0.1 actual + 0.4 held by short");
  assert.ok(Math.abs(tracker.held - 0.8) < 1e-12, "both still hold their reservation");
  assert.ok(Math.abs(tracker.flow(long, 0.7) - 1.1) < 1e-12);
  assert.ok(Math.abs(tracker.held - 1.1) < 1e-12, "the long one now holds its actual");
  tracker.release(short, 0.05);
  assert.ok(Math.abs(tracker.flow(long, 0.7) - 0.75) < 1e-12);
});

Deno.test("BudgetTracker: after a rollover, holds in flight stay held and watched in the new period", async () => {
  const tracker = new BudgetTracker();
  await tracker.load("day", JAN_15, () => Promise.resolve(2));
  const old = tracker.hold(1);
  const next = Date.UTC(2026, 0, 16, 0, 0, 1);
  await tracker.load("day", next, () => Promise.resolve(0));
  assert.equal(tracker.settled, 0, "the new period's ledger");
  assert.equal(tracker.held, 1, "the request in flight still holds its reservation");
  assert.equal(tracker.holds, 1);
  assert.equal(tracker.flow(old, 5), 5, "still watched: a budget under $5 would cut it");
  tracker.release(old, 5);
  assert.equal(tracker.settled, 5, "its cost counts in the new period's memory (errs high)");
  assert.equal(tracker.holds, 0);
  assert.equal(tracker.held, 0);
});

Deno.test("BudgetTracker: an edit of the period keeps the holds in flight", async () => {
  const tracker = new BudgetTracker();
  await tracker.load("month", JAN_15, () => Promise.resolve(3));
  const hold = tracker.hold(2);
  await tracker.load("day", JAN_15, () => Promise.resolve(1));
  assert.equal(tracker.held, 2);
  assert.equal(tracker.flow(hold, 50), 51, "settled 1 + this request's 50");
  tracker.release(hold, 50);
  assert.equal(tracker.settled, 51);
});

Deno.test("BudgetTracker: a failed load is retried by the next caller", async () => {
  const tracker = new BudgetTracker();
  await assert.rejects(
    tracker.load("total", JAN_15, () => Promise.reject(new Error("db down"))),
    /db down/,
  );
  assert.equal(tracker.ready("total", JAN_15), false);
  await tracker.load("total", JAN_15, () => Promise.resolve(1));
  assert.equal(tracker.settled, 1);
});

Deno.test("BudgetTracker: peek is what flow would return, to the bit, recording nothing", async () => {
  const tracker = new BudgetTracker();
  await tracker.load("total", JAN_15, () => Promise.resolve(0.1));
  const hold = tracker.hold(0.3);
  tracker.hold(0.2);
  for (const actual of [0.05, 0.1, 0.3, 0.30000000000000004, 0.7, 0.2, 1e-9, 0.7 + 1e-12]) {
    const peeked = tracker.peek(hold, actual);
    const held = tracker.held;
    assert.equal(tracker.peek(hold, actual), peeked, "peeking changes nothing");
    assert.equal(tracker.held, held);
    assert.equal(tracker.flow(hold, actual), peeked, `at ${actual}`);
  }
  tracker.release(hold, 0.7);
  assert.equal(tracker.peek(hold, 1), -1, "a released hold, like flow");
});
