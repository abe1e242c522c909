import assert from "node:assert/strict";
import { GatewayError } from "../core/errors.ts";
import type { Admission } from "../gateway/admission.ts";
import { emptyUsage } from "../core/response.ts";
import { IMAGES_ROUTE } from "./estimate.ts";
import { Governor, IDLE_DROP_MS } from "./governor.ts";
import { fakeClock, fakeLedger, keyWith, modelWith, requestOf, spentOf } from "./testing.ts";

// Output at $1000 per million tokens ($0.001 a token), input free: a request asking
// `max_tokens: n` (n ≤ 4096) reserves exactly $n / 1000.
const model = modelWith("gpt-test", { input: 0, output: 1_000 });
const flowing = (cost: number) => ({ usage: emptyUsage(), cost });
const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;

/** The refusal of an admission, thrown at once or from its promise. */
async function refusal(admit: () => Admission | Promise<Admission>): Promise<GatewayError> {
  try {
    await admit();
  } catch (error) {
    assert.ok(error instanceof GatewayError);
    return error;
  }
  assert.fail("admitted");
}

Deno.test("budget: 50 concurrent admits under a budget that fits 10 reservations admit exactly 10", async () => {
  const ledger = fakeLedger(() => 0);
  const governor = new Governor({ store: ledger });
  const key = keyWith({ budgetUsd: 10 });
  const first = governor.admit(requestOf(key, model, { maxTokens: 1_000 })); // $1 each
  assert.ok(first instanceof Promise, "the first request waits for the ledger");
  const rest = Array.from(
    { length: 49 },
    () => governor.admit(requestOf(key, model, { maxTokens: 1_000 })),
  );
  const results = await Promise.allSettled([first, ...rest]);
  const admitted = results.filter((r) => r.status === "fulfilled");
  const refused = results.filter((r) => r.status === "rejected");
  assert.equal(admitted.length, 10);
  assert.equal(refused.length, 40);
  assert.equal(ledger.queries.length, 1, "one load shared by all 50");
  const error = (refused[0] as PromiseRejectedResult).reason as GatewayError;
  assert.equal(error.status, 429);
  assert.equal(error.kind, "quota");
  assert.equal(error.code, "insufficient_quota");
  assert.match(error.message, /\$10\.00 in total; \$10\.00 spent this period \(\$0\.00 settled/);
  assert.match(error.message, /held by 10 requests in flight\), and this request reserves \$1\.00/);
  assert.match(error.message, /retry when they finish/);
  assert.equal(error.headers["retry-after"], "1", "in-flight holds free up soon");
  // Loaded: admission is synchronous now.
  assert.ok(!(governor.admit(requestOf(key, model, { maxTokens: 0 })) instanceof Promise));
});

Deno.test("budget: watch cuts once settled + flowing reaches the budget", async () => {
  const clock = fakeClock(Date.UTC(2026, 0, 15, 12));
  const governor = new Governor({ store: fakeLedger(() => 8), now: clock.now });
  const key = keyWith({ budgetUsd: 10, budgetPeriod: "month" });
  const admission = await governor.admit(requestOf(key, model, { maxTokens: 1_000 }));
  assert.ok(admission.watch);
  assert.equal(admission.watch(flowing(0.5)), null); // 8.5
  assert.equal(admission.watch(flowing(1.5)), null); // 9.5: past its $1 reservation, metered
  const cut = admission.watch(flowing(2));
  assert.ok(cut instanceof GatewayError);
  assert.equal(cut.kind, "quota");
  assert.equal(cut.code, "insufficient_quota");
  assert.match(
    cut.message,
    /\$10\.00 spent of \$10\.00 per month \(UTC\).*resets at 2026-02-01T00:00:00Z/,
  );
  admission.release(spentOf({ outputTokens: 2_000 }, 2));
  const status = await governor.status(key);
  assert.equal(status.key?.spentUsd, 10);
  assert.equal(status.inFlightUsd, 0);
});

Deno.test("budget: watch counts the others' holds and this request at its actual spend", async () => {
  const governor = new Governor({ store: fakeLedger(() => 0) });
  const key = keyWith({ budgetUsd: 3 });
  const a = await governor.admit(requestOf(key, model, { maxTokens: 1_000 })); // holds $1
  const b = await governor.admit(requestOf(key, model, { maxTokens: 1_000 })); // holds $1
  assert.equal(a.watch?.(flowing(0)), null, "nothing spent: never cut");
  assert.equal(a.watch?.(flowing(1.9)), null); // 1.9 + 1 (b) = 2.9
  assert.ok(a.watch?.(flowing(2)) instanceof GatewayError); // 2 + 1 = 3
  b.release(spentOf({}, 0.1));
  assert.equal(a.watch?.(flowing(2.8)), null); // 0.1 settled + 2.8 = 2.9
});

Deno.test("budget: no starvation — a 128k-token agent stream reserves $4.096 (4096 capped), not $128; a $0.50 request fits beside it under $20", async () => {
  const governor = new Governor({ store: fakeLedger(() => 0) });
  const key = keyWith({ budgetUsd: 20, budgetPeriod: "day" });
  const agent = await governor.admit(requestOf(key, model, { maxTokens: 128_000 }));
  let status = await governor.status(key);
  assert.ok(near(status.inFlightUsd, 4.096), `agent holds ${status.inFlightUsd}`);
  assert.equal(agent.watch?.(flowing(3)), null); // streaming, under its reservation
  const short = await governor.admit(requestOf(key, model, { maxTokens: 500 })); // $0.50
  status = await governor.status(key);
  assert.ok(near(status.inFlightUsd, 4.596), `held: 4.096 + 0.5 = ${status.inFlightUsd}`);
  short.release(spentOf({ outputTokens: 120 }, 0.12));
  assert.equal(agent.watch?.(flowing(15)), null); // metered past its reservation: holds $15
  const another = await governor.admit(requestOf(key, model, { maxTokens: 4_000 })); // $4
  assert.ok(near((await governor.status(key)).key?.spentUsd ?? 0, 0.12 + 15 + 4));
  // The hard cap still holds: the agent is cut when settled + holds reach $20.
  const cut = agent.watch?.(flowing(15.88));
  assert.ok(cut instanceof GatewayError, "0.12 + 15.88 + 4 = 20");
  agent.release(spentOf({}, 15.88));
  another.release(spentOf({}, 0.5));
});

Deno.test("budget: a team budget is shared by its keys", async () => {
  const ledger = fakeLedger((q) => q.team === "research" ? 1 : 0);
  const clock = fakeClock(Date.UTC(2026, 0, 15, 12)); // a Thursday
  const governor = new Governor({ store: ledger, now: clock.now });
  const team = { id: "research", policy: { budgetUsd: 3, budgetPeriod: "week" as const } };
  const alice = keyWith({}, team, "key_alice");
  const bob = keyWith({ budgetUsd: 100 }, team, "key_bob");
  await governor.admit(requestOf(alice, model, { maxTokens: 1_500 })); // team: 1 + 1.5
  const error = await refusal(() => governor.admit(requestOf(bob, model, { maxTokens: 1_000 })));
  assert.match(error.message, /team "research" \(shared by its keys\): \$3\.00 per week/);
  assert.match(error.message, /resets at 2026-01-19T00:00:00Z/);
  assert.deepEqual(ledger.queries.map((q) => q.team ?? q.keyId).sort(), ["key_bob", "research"]);
  const status = await governor.status(bob);
  assert.ok(near(status.team?.spentUsd ?? 0, 2.5));
  assert.ok(near(status.teamInFlightUsd, 1.5));
  assert.equal(status.key?.spentUsd, 0);
});

Deno.test("budget: the period rolls over at 00:00 UTC; refused until then with retry-after to the reset", async () => {
  const clock = fakeClock(Date.UTC(2026, 0, 15, 23, 59, 58, 500));
  const day15 = Date.UTC(2026, 0, 15);
  const ledger = fakeLedger((q) => q.start === day15 ? 0.9 : 0);
  const governor = new Governor({ store: ledger, now: clock.now });
  const key = keyWith({ budgetUsd: 1, budgetPeriod: "day" });
  const error = await refusal(() => governor.admit(requestOf(key, model, { maxTokens: 500 })));
  assert.equal(error.headers["retry-after"], "2"); // 1.5 s, rounded up
  assert.match(error.message, /\$1\.00 per day \(UTC\); \$0\.90 spent/);
  assert.doesNotMatch(error.message, /in flight hold/);
  clock.set(Date.UTC(2026, 0, 16, 0, 0, 1));
  const next = governor.admit(requestOf(key, model, { maxTokens: 500 }));
  assert.ok(next instanceof Promise, "the new day's spend is loaded");
  await next;
  assert.deepEqual(ledger.queries.map((q) => q.start), [day15, Date.UTC(2026, 0, 16)]);
});

Deno.test("budget: a stream admitted before midnight is still watched after the new day loads", async () => {
  const clock = fakeClock(Date.UTC(2026, 0, 15, 23, 59, 59));
  const governor = new Governor({ store: fakeLedger(() => 0), now: clock.now });
  const key = keyWith({ budgetUsd: 10, budgetPeriod: "day" });
  const stream = await governor.admit(requestOf(key, model, { maxTokens: 1_000 })); // $1
  clock.set(Date.UTC(2026, 0, 16, 0, 0, 1));
  const short = await governor.admit(requestOf(key, model, { maxTokens: 1_000 }));
  assert.equal(stream.watch?.(flowing(5)), null, "$5 + the short request's $1: under $10");
  assert.ok(stream.watch?.(flowing(9)) instanceof GatewayError, "$9 + $1 reach the $10");
  short.release(spentOf({}, 0.5));
  stream.release(spentOf({}, 9));
  assert.ok(near((await governor.status(key)).key?.spentUsd ?? 0, 9.5));
});

Deno.test("budget: a total budget never resets (no retry-after)", async () => {
  const governor = new Governor({ store: fakeLedger(() => 5) });
  const error = await refusal(() => governor.admit(requestOf(keyWith({ budgetUsd: 5 }), model)));
  assert.equal(error.headers["retry-after"], undefined);
  assert.match(error.message, /never resets: the budget is total/);
});

Deno.test("budget: images reserve the per-image price × n; tpm does not count them", async () => {
  const images = modelWith("gpt-image", { per_image: 0.25 });
  const governor = new Governor({ store: fakeLedger(() => 0) });
  const key = keyWith({ budgetUsd: 1, tpm: 1 });
  const body = { body: { n: 3 }, route: IMAGES_ROUTE, bodyBytes: 400 };
  const held = await governor.admit(requestOf(key, images, body)); // $0.75; 100 tokens > tpm 1
  assert.ok(near((await governor.status(key)).inFlightUsd, 0.75));
  await refusal(() => governor.admit(requestOf(key, images, { ...body, body: { n: 2 } })));
  held.release(spentOf({}, 0.75, 3));
});

Deno.test("budget: an idle key's state is dropped, and its spend reloaded when it comes back", async () => {
  const clock = fakeClock();
  const ledger = fakeLedger(() => 0);
  const governor = new Governor({ store: ledger, now: clock.now });
  const key = keyWith({ budgetUsd: 5 });
  (await governor.admit(requestOf(key, model))).release(spentOf({}, 1));
  clock.advance(IDLE_DROP_MS + 60_000);
  await governor.admit(requestOf(keyWith({ budgetUsd: 5 }, null, "key_other"), model));
  assert.ok(governor.admit(requestOf(key, model)) instanceof Promise, "reloaded");
  assert.equal(ledger.queries.filter((q) => q.keyId === key.id).length, 2);
});

Deno.test("budget: a whole answer reserves all the output it may produce, a stream the capped part", async () => {
  const governor = new Governor({ store: fakeLedger(() => 0) });
  const key = keyWith({ budgetUsd: 8 });
  // max_tokens 6000 at $0.001 a token: a stream holds $4.096 (capped), a whole answer $6.
  const stream = await governor.admit(requestOf(key, model, { maxTokens: 6_000 }));
  assert.ok(near((await governor.status(key)).inFlightUsd, 4.096));
  const error = await refusal(() =>
    governor.admit(requestOf(key, model, { maxTokens: 6_000, stream: false }))
  );
  assert.equal(error.status, 429);
  assert.match(error.message, /reserves \$6\.00\. It is a whole \(non-streamed\) answer/);
  assert.match(error.message, /\(6000 tokens\): stream it, or set a lower max_tokens/);
  stream.release(spentOf({ outputTokens: 100 }, 0.1));
  const whole = await governor.admit(requestOf(key, model, { maxTokens: 6_000, stream: false }));
  assert.ok(near((await governor.status(key)).inFlightUsd, 6));
  whole.release(spentOf({ outputTokens: 6_000 }, 6));
  const spent = (await governor.status(key)).key?.spentUsd ?? 0;
  assert.ok(spent <= 8, `a whole answer at its maximum stays within the budget: ${spent}`);
});
