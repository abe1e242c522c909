import assert from "node:assert/strict";
import { DeploymentHealth, RECENT_WINDOW_MS } from "./health.ts";

const COOLDOWN_MS = 30_000;
const ID = "gpt-5@openai-a";

/** A breaker cooling after 3 failures for 30 s, on a clock the test moves. */
function breaker(start = 1_000_000) {
  const clock = { t: start };
  const health = new DeploymentHealth({
    cooldownMs: COOLDOWN_MS,
    failures: 3,
    now: () => clock.t,
  });
  return { health, clock };
}

/** `count` attempts on `id` that fail one after another. */
function fail(health: DeploymentHealth, count: number, id = ID, coolForMs?: number): void {
  for (let i = 0; i < count; i++) {
    const ticket = health.begin(id);
    ticket.failed(`boom ${i}`, coolForMs);
    ticket.done();
  }
}

/** One attempt on `id` that answers. */
function succeed(health: DeploymentHealth, id = ID): void {
  const ticket = health.begin(id);
  ticket.succeeded();
  ticket.done();
}

Deno.test("DeploymentHealth: a deployment never called is healthy and usable", () => {
  const { health } = breaker();
  assert.equal(health.usable(ID), true);
  assert.equal(health.inFlight(ID), 0);
  assert.equal(health.cooldownUntil(ID), null);
  assert.deepEqual(health.view(ID), {
    state: "healthy",
    inFlight: 0,
    consecutiveFailures: 0,
    recentRequests: 0,
    recentErrors: 0,
    cooldownUntil: null,
    lastError: null,
  });
});

Deno.test("DeploymentHealth: stays healthy below the failure threshold", () => {
  const { health } = breaker();
  fail(health, 2);
  assert.equal(health.view(ID).state, "healthy");
  assert.equal(health.view(ID).consecutiveFailures, 2);
  assert.equal(health.usable(ID), true);
});

Deno.test("DeploymentHealth: N failures in a row cool the deployment down", () => {
  const { health, clock } = breaker();
  fail(health, 3);
  assert.equal(health.view(ID).state, "cooling");
  assert.equal(health.usable(ID), false);
  assert.equal(health.cooldownUntil(ID), clock.t + COOLDOWN_MS);
  assert.equal(health.view(ID).cooldownUntil, clock.t + COOLDOWN_MS);
});

Deno.test("DeploymentHealth: the cool-down ends in probing, not before", () => {
  const { health, clock } = breaker();
  fail(health, 3);
  const until = clock.t + COOLDOWN_MS;
  clock.t = until - 1;
  assert.equal(health.usable(ID), false);
  assert.equal(health.view(ID).state, "cooling");
  clock.t = until;
  assert.equal(health.usable(ID), true);
  assert.equal(health.view(ID).state, "probing");
  assert.equal(health.cooldownUntil(ID), null);
});

Deno.test("DeploymentHealth: a probing deployment takes one request at a time", () => {
  const { health, clock } = breaker();
  fail(health, 3);
  clock.t += COOLDOWN_MS;
  const probe = health.begin(ID);
  assert.equal(health.usable(ID), false);
  assert.equal(health.view(ID).state, "probing");
  probe.done();
  assert.equal(health.usable(ID), true, "a probe that ended without a verdict frees the slot");
  assert.equal(health.view(ID).state, "probing");
});

Deno.test("DeploymentHealth: a probe that succeeds makes the deployment healthy", () => {
  const { health, clock } = breaker();
  fail(health, 3);
  clock.t += COOLDOWN_MS;
  const probe = health.begin(ID);
  probe.succeeded();
  assert.equal(health.view(ID).state, "healthy");
  assert.equal(health.view(ID).consecutiveFailures, 0);
  assert.equal(health.usable(ID), true);
  probe.done();
  assert.equal(health.view(ID).inFlight, 0);
});

Deno.test("DeploymentHealth: a probe that fails cools the deployment again at once", () => {
  const { health, clock } = breaker();
  fail(health, 3);
  clock.t += COOLDOWN_MS;
  const probe = health.begin(ID);
  probe.failed("still down");
  probe.done();
  assert.equal(health.view(ID).state, "cooling");
  assert.equal(health.cooldownUntil(ID), clock.t + COOLDOWN_MS);
  assert.equal(health.usable(ID), false);
  assert.equal(health.view(ID).lastError, "still down");
  clock.t += COOLDOWN_MS;
  assert.equal(health.view(ID).state, "probing");
});

Deno.test("DeploymentHealth: a probe that answered and ends later leaves a newer probe's slot taken", () => {
  const { health, clock } = breaker();
  fail(health, 3);
  clock.t += COOLDOWN_MS;
  // The probe's answer is a long stream: it succeeds at once and ends much later.
  const longProbe = health.begin(ID);
  longProbe.succeeded();
  fail(health, 3);
  clock.t += COOLDOWN_MS;
  const newProbe = health.begin(ID);
  assert.equal(health.usable(ID), false);
  longProbe.done();
  assert.equal(health.usable(ID), false, "the new probe still runs: no second probe may start");
  newProbe.done();
});

Deno.test("DeploymentHealth: a 429's retry-after cools for that long, then healthy without a probe", () => {
  const { health, clock } = breaker();
  fail(health, 1, ID, 5_000);
  assert.equal(health.view(ID).state, "cooling");
  assert.equal(health.cooldownUntil(ID), clock.t + 5_000);
  assert.equal(health.usable(ID), false);
  clock.t += 5_000;
  assert.equal(health.view(ID).state, "healthy");
  assert.equal(health.usable(ID), true);
  assert.equal(health.cooldownUntil(ID), null);
});

Deno.test("DeploymentHealth: a shorter retry-after does not shorten a longer cool-down", () => {
  const { health, clock } = breaker();
  const start = clock.t;
  fail(health, 1, ID, 20_000);
  clock.t += 1_000;
  fail(health, 1, ID, 2_000);
  assert.equal(health.cooldownUntil(ID), start + 20_000);
  fail(health, 1, ID, 60_000);
  assert.equal(health.cooldownUntil(ID), clock.t + 60_000);
});

Deno.test("DeploymentHealth: a success resets the consecutive failures", () => {
  const { health } = breaker();
  fail(health, 2);
  succeed(health);
  assert.equal(health.view(ID).consecutiveFailures, 0);
  fail(health, 2);
  assert.equal(health.view(ID).state, "healthy");
  assert.equal(health.view(ID).consecutiveFailures, 2);
});

Deno.test("DeploymentHealth: deployments are tracked apart", () => {
  const { health } = breaker();
  fail(health, 3, "a@x");
  assert.equal(health.usable("a@x"), false);
  assert.equal(health.usable("b@x"), true);
  assert.equal(health.view("b@x").consecutiveFailures, 0);
});

Deno.test("DeploymentHealth: in-flight counts each attempt until its done()", () => {
  const { health } = breaker();
  const first = health.begin(ID);
  const second = health.begin(ID);
  assert.equal(health.inFlight(ID), 2);
  first.succeeded();
  assert.equal(health.inFlight(ID), 2, "an answer is still in flight until it ends");
  first.done();
  assert.equal(health.inFlight(ID), 1);
  second.failed("cut");
  assert.equal(health.inFlight(ID), 1);
  second.done();
  assert.equal(health.inFlight(ID), 0);
  assert.equal(health.view(ID).inFlight, 0);
});

Deno.test("DeploymentHealth: done() twice counts once", () => {
  const { health } = breaker();
  const other = health.begin(ID);
  const ticket = health.begin(ID);
  ticket.done();
  ticket.done();
  assert.equal(health.inFlight(ID), 1);
  other.done();
  assert.equal(health.inFlight(ID), 0);
});

Deno.test("DeploymentHealth: a ticket that is done reports nothing more", () => {
  const { health } = breaker();
  const ticket = health.begin(ID);
  ticket.done();
  ticket.failed("late");
  ticket.succeeded();
  const view = health.view(ID);
  assert.equal(view.consecutiveFailures, 0);
  assert.equal(view.recentRequests, 0);
  assert.equal(view.lastError, null);
});

Deno.test("DeploymentHealth: an answer counts once however often it is reported", () => {
  const { health } = breaker();
  const ticket = health.begin(ID);
  ticket.succeeded();
  ticket.succeeded();
  ticket.done();
  assert.equal(health.view(ID).recentRequests, 1);
});

Deno.test("DeploymentHealth: a failure after the answer (a stream cut) counts as an error", () => {
  const { health } = breaker();
  const ticket = health.begin(ID);
  ticket.succeeded();
  ticket.failed("upstream_cut: mid-stream");
  ticket.done();
  const view = health.view(ID);
  assert.equal(view.recentRequests, 1, "one call, answered and then cut: a failed one");
  assert.equal(view.recentErrors, 1);
  assert.equal(view.consecutiveFailures, 1);
  assert.equal(view.lastError, "upstream_cut: mid-stream");
});

Deno.test("DeploymentHealth: recent counts requests and errors of the last 5 minutes", () => {
  // Starts on a 10 s bucket boundary, so the window's edges fall on exact times.
  const { health, clock } = breaker(1_000_000);
  succeed(health);
  succeed(health);
  fail(health, 1);
  let view = health.view(ID);
  assert.equal(view.recentRequests, 3);
  assert.equal(view.recentErrors, 1);
  clock.t += RECENT_WINDOW_MS - 10_000;
  view = health.view(ID);
  assert.equal(view.recentRequests, 3, "still inside the window");
  assert.equal(view.recentErrors, 1);
  clock.t += 10_000;
  view = health.view(ID);
  assert.equal(view.recentRequests, 0, "5 minutes on, the old bucket is dropped");
  assert.equal(view.recentErrors, 0);
});

Deno.test("DeploymentHealth: a reused bucket forgets what it held", () => {
  const { health, clock } = breaker(1_000_000);
  fail(health, 2);
  clock.t += RECENT_WINDOW_MS;
  succeed(health);
  const view = health.view(ID);
  assert.equal(view.recentRequests, 1);
  assert.equal(view.recentErrors, 0);
});

Deno.test("DeploymentHealth: recent sums the buckets inside the window", () => {
  const { health, clock } = breaker(1_000_000);
  succeed(health);
  clock.t += 60_000;
  fail(health, 1);
  clock.t += 60_000;
  succeed(health);
  let view = health.view(ID);
  assert.equal(view.recentRequests, 3);
  assert.equal(view.recentErrors, 1);
  clock.t += RECENT_WINDOW_MS - 120_000;
  view = health.view(ID);
  assert.equal(view.recentRequests, 2, "the first request left the window");
  assert.equal(view.recentErrors, 1);
});

Deno.test("DeploymentHealth: view() shows the state, counts and last error", () => {
  const { health, clock } = breaker();
  const running = health.begin(ID);
  fail(health, 3);
  assert.deepEqual(health.view(ID), {
    state: "cooling",
    inFlight: 1,
    consecutiveFailures: 3,
    recentRequests: 3,
    recentErrors: 3,
    cooldownUntil: clock.t + COOLDOWN_MS,
    lastError: "boom 2",
  });
  running.done();
});

/** `count` attempts on `id` begun now and still running. */
function running(health: DeploymentHealth, count: number, id = ID) {
  return Array.from({ length: count }, () => health.begin(id));
}

Deno.test("DeploymentHealth: failures overtaken by answers do not cool the deployment", () => {
  const { health } = breaker();
  const slow = running(health, 3);
  for (let i = 0; i < 4; i++) succeed(health);
  for (const ticket of slow) {
    ticket.failed("connect_timeout: no connection within 10000 ms");
    ticket.done();
  }
  const view = health.view(ID);
  assert.equal(view.state, "healthy");
  assert.equal(view.consecutiveFailures, 0);
  assert.equal(view.recentErrors, 3);
  assert.equal(view.lastError, "connect_timeout: no connection within 10000 ms");
});

Deno.test("DeploymentHealth: attempts begun after the last answer still cool it, however many run", () => {
  const { health } = breaker();
  const old = running(health, 5);
  for (let i = 0; i < 10; i++) succeed(health);
  // The deployment stops answering: what was running fails (overtaken), then the new attempts.
  for (const ticket of old) ticket.failed("upstream_cut: connection reset");
  assert.equal(health.view(ID).state, "healthy");
  const fresh = running(health, 3);
  fresh[0]!.failed("unreachable: connection refused");
  fresh[1]!.failed("unreachable: connection refused");
  assert.equal(health.view(ID).state, "healthy");
  fresh[2]!.failed("unreachable: connection refused");
  assert.equal(health.view(ID).state, "cooling");
  assert.equal(health.view(ID).consecutiveFailures, 3);
});

Deno.test("DeploymentHealth: overtaken failures count once most recent attempts fail", () => {
  const { health } = breaker();
  const slow = running(health, 6);
  succeed(health);
  succeed(health);
  // 1 of 3 failed: not counted; 2 of 4 failed: half, so from there each failure counts.
  slow[0]!.failed("e");
  assert.equal(health.view(ID).consecutiveFailures, 0);
  slow[1]!.failed("e");
  slow[2]!.failed("e");
  assert.equal(health.view(ID).consecutiveFailures, 2);
  assert.equal(health.view(ID).state, "healthy");
  slow[3]!.failed("e");
  assert.equal(health.view(ID).state, "cooling");
});

Deno.test("DeploymentHealth: the rate looks at the last 10-20 s, not at older answers", () => {
  // On a 10 s bucket boundary: 25 s later the answers' bucket is two behind.
  const { health, clock } = breaker(1_000_000);
  for (let i = 0; i < 20; i++) succeed(health);
  clock.t += 25_000;
  const slow = running(health, 3);
  succeed(health);
  for (const ticket of slow) ticket.failed("e");
  assert.equal(health.view(ID).state, "cooling", "1 answer against 3 failures in the span");
});

Deno.test("DeploymentHealth: a retry-after cools even when other attempts were answered", () => {
  const { health, clock } = breaker();
  const limited = health.begin(ID);
  for (let i = 0; i < 5; i++) succeed(health);
  limited.failed("retryable_status: HTTP 429", 2_000);
  assert.equal(health.view(ID).state, "cooling");
  assert.equal(health.cooldownUntil(ID), clock.t + 2_000);
});

Deno.test("DeploymentHealth: streams answered and then cut cool it once half of the calls broke", () => {
  const { health } = breaker();
  const streams = running(health, 50);
  for (const ticket of streams) ticket.succeeded();
  // Each cut takes its answer back: after k cuts, k of 50 calls failed.
  for (let k = 1; k <= 26; k++) {
    streams[k - 1]!.failed("upstream_cut: mid-stream");
    assert.equal(health.view(ID).state, "healthy", `after ${k} cuts`);
  }
  streams[26]!.failed("upstream_cut: mid-stream");
  assert.equal(health.view(ID).state, "cooling", "cuts 25, 26 and 27 counted");
  assert.equal(health.view(ID).recentRequests, 50);
  assert.equal(health.view(ID).recentErrors, 27);
});

Deno.test("DeploymentHealth: a cut after the ticket's own answer is not overtaken by that answer", () => {
  const { health } = breaker();
  for (let i = 0; i < 3; i++) succeed(health);
  for (let i = 0; i < 3; i++) {
    const ticket = health.begin(ID);
    ticket.succeeded();
    ticket.failed("upstream_cut: mid-stream");
    ticket.done();
    assert.equal(health.view(ID).consecutiveFailures, 1);
  }
});

Deno.test("DeploymentHealth: overtaken failures between counted ones do not break the run", () => {
  const { health } = breaker();
  const old = running(health, 2);
  for (let i = 0; i < 10; i++) succeed(health);
  const fresh = running(health, 3);
  fresh[0]!.failed("e");
  old[0]!.failed("e");
  fresh[1]!.failed("e");
  old[1]!.failed("e");
  fresh[2]!.failed("e");
  assert.equal(health.view(ID).state, "cooling");
});

Deno.test("DeploymentHealth: answers in the previous bucket count towards the rate", () => {
  const { health, clock } = breaker(1_000_000);
  clock.t += 9_000;
  for (let i = 0; i < 10; i++) succeed(health);
  const slow = running(health, 3);
  clock.t += 2_000; // the next 10 s bucket
  succeed(health);
  for (const ticket of slow) ticket.failed("e");
  assert.equal(health.view(ID).state, "healthy");
});

Deno.test("DeploymentHealth: answers of five minutes ago, in the same slot, do not count", () => {
  const { health, clock } = breaker(1_000_000);
  for (let i = 0; i < 20; i++) succeed(health);
  clock.t += RECENT_WINDOW_MS + 10_000; // the previous bucket reuses the answers' slot
  const slow = running(health, 3);
  succeed(health);
  for (const ticket of slow) ticket.failed("e");
  assert.equal(health.view(ID).state, "cooling");
});

Deno.test("DeploymentHealth: one answer while it ran is enough to overtake a failure", () => {
  const { health } = breaker();
  for (let i = 0; i < 10; i++) succeed(health);
  const slow = running(health, 3);
  succeed(health);
  for (const ticket of slow) ticket.failed("e");
  assert.equal(health.view(ID).state, "healthy");
});
