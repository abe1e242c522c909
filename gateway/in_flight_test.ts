import assert from "node:assert/strict";
import type { GatewayError } from "../core/errors.ts";
import { type Drainable, InFlight, SHUTTING_DOWN, shuttingDown } from "./in_flight.ts";

/** A running request that records how it was ended; `settles` untracks it when ended. */
function request(inflight: InFlight, options: { settles?: boolean } = {}) {
  const ended: GatewayError[] = [];
  const settled = { now: 0 };
  let untrack = () => {};
  const entry: Drainable = {
    shutDown(error) {
      ended.push(error);
      if (options.settles) untrack();
    },
    settleNow() {
      settled.now++;
      untrack();
    },
  };
  untrack = inflight.track(entry);
  return { ended, settled, untrack: () => untrack() };
}

Deno.test("track counts a request until its untrack; a second untrack changes nothing", () => {
  const inflight = new InFlight();
  const a = request(inflight);
  const b = request(inflight);
  assert.equal(inflight.size, 2);
  a.untrack();
  a.untrack();
  assert.equal(inflight.size, 1);
  b.untrack();
  assert.equal(inflight.size, 0);
  assert.equal(inflight.draining, false);
});

Deno.test("drain with nothing in flight resolves at once and ends nothing", async () => {
  const inflight = new InFlight();
  const started = performance.now();
  assert.equal(await inflight.drain(10_000, "SIGINT"), 0);
  assert.ok(performance.now() - started < 1_000);
  assert.equal(inflight.draining, true);
  assert.equal(inflight.signal, "SIGINT");
});

Deno.test("drain resolves as soon as the last request settled, before the grace period", async () => {
  const inflight = new InFlight();
  const a = request(inflight);
  const b = request(inflight);
  const started = performance.now();
  const drained = inflight.drain(10_000);
  assert.equal(inflight.draining, true, "draining from the call on");
  setTimeout(a.untrack, 20);
  setTimeout(b.untrack, 40);
  assert.equal(await drained, 0);
  assert.ok(performance.now() - started < 1_000, "did not wait for the grace period");
  assert.deepEqual([a.ended, b.ended], [[], []]);
});

Deno.test("drain ends what still runs when the grace period is over, with the shutdown error", async () => {
  const inflight = new InFlight();
  const quick = request(inflight);
  const slow = request(inflight, { settles: true });
  const started = performance.now();
  setTimeout(quick.untrack, 10);
  assert.equal(await inflight.drain(100, "SIGTERM"), 1);
  assert.ok(performance.now() - started >= 90, "waited for the grace period");
  assert.deepEqual(quick.ended, []);
  assert.equal(slow.ended.length, 1);
  const error = slow.ended[0]!;
  assert.equal(error.status, 503);
  assert.equal(error.code, SHUTTING_DOWN);
  assert.match(error.message, /shutting down \(SIGTERM\)/);
  assert.equal(inflight.size, 0);
});

Deno.test("cutAll ends every request at once, naming the signal; it also starts draining", () => {
  const inflight = new InFlight();
  const a = request(inflight, { settles: true });
  const b = request(inflight, { settles: true });
  const c = request(inflight);
  c.untrack();
  assert.equal(inflight.cutAll("SIGINT"), 2);
  assert.equal(inflight.draining, true);
  for (const { ended } of [a, b]) {
    assert.equal(ended.length, 1);
    assert.match(ended[0]!.message, /\(SIGINT\)/);
  }
  assert.deepEqual(c.ended, []);
  assert.equal(inflight.size, 0);
});

Deno.test("a second signal during the drain ends everything at once and the drain resolves", async () => {
  const inflight = new InFlight();
  const a = request(inflight, { settles: true });
  const started = performance.now();
  const drained = inflight.drain(10_000, "SIGTERM");
  setTimeout(() => inflight.cutAll(), 20);
  await drained;
  assert.ok(performance.now() - started < 1_000);
  assert.equal(a.ended.length, 1);
  assert.match(a.ended[0]!.message, /\(SIGTERM\)/, "the drain's signal by default");
});

Deno.test("shuttingDown is a 503 asking for a retry", () => {
  const error = shuttingDown("SIGINT");
  assert.equal(error.kind, "unavailable");
  assert.equal(error.status, 503);
  assert.equal(error.code, SHUTTING_DOWN);
  assert.match(error.message, /Retry the request/);
});

Deno.test("settleRemaining settles every request still running, and only those", () => {
  const inflight = new InFlight();
  const open = request(inflight);
  const done = request(inflight);
  done.untrack();
  assert.equal(inflight.settleRemaining(), 1);
  assert.equal(open.settled.now, 1);
  assert.equal(done.settled.now, 0);
  assert.equal(inflight.size, 0);
});

Deno.test("in flight: a fall is a request leaving a quarter or less of the peak running", () => {
  const inflight = new InFlight();
  const falls: number[] = [];
  inflight.onFall((running) => falls.push(running));
  const entry = { shutDown() {}, settleNow() {} };
  const ends = Array.from({ length: 8 }, () => inflight.track({ ...entry }));
  assert.equal(inflight.peak, 8);
  for (const end of ends.slice(0, 6)) end();
  assert.deepEqual(falls, [2]);
  ends[5]!();
  assert.deepEqual(falls, [2], "a remover called twice is no second leave");
  inflight.resetPeak();
  assert.equal(inflight.peak, 2, "the new peak is the 2 running");
  inflight.track({ ...entry });
  ends[6]!();
  assert.deepEqual(falls, [2], "2 of a peak of 3 is not a fall");
  ends[7]!();
  assert.deepEqual(falls, [2], "1 of 3 is not yet");
});
