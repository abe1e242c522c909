import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import type { Admission, AdmissionRequest, Admitter } from "../../gateway/admission.ts";
import { Governor } from "../governor.ts";
import type { Policy } from "../policy.ts";
import { fakeClock, fakeLedger, keyWith, modelWith, requestOf, spentOf } from "../testing.ts";
import { SharedGovernor } from "./shared_governor.ts";
import { backendTest } from "./test_backends.ts";

// Output at $1000 per million tokens, input free: `max_tokens: n` reserves $n / 1000.
const model = modelWith("gpt-test", { input: 0, output: 1_000 });

/** Admitted, or the refusal. */
async function attempt(admitter: Admitter, request: AdmissionRequest) {
  try {
    return { admission: await admitter.admit(request), error: null };
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    return { admission: null, error };
  }
}

function twoInstances(made: { backend: SharedGovernor["backend"] }, spent = 0, leaseMs = 30_000) {
  const clock = fakeClock();
  const store = fakeLedger(() => spent);
  const make = () => new SharedGovernor({ backend: made.backend, store, now: clock.now, leaseMs });
  return { clock, store, a: make(), b: make() };
}

backendTest("shared: rpm 10 across two instances admits exactly 10 of 30", async (made) => {
  const { clock, a, b } = twoInstances(made);
  const key = keyWith({ rpm: 10 });
  const results = await Promise.all(
    Array.from({ length: 30 }, (_, i) => attempt(i % 2 ? a : b, requestOf(key, model))),
  );
  const admitted = results.filter((r) => r.admission !== null);
  assert.equal(admitted.length, 10);
  const refused = results.find((r) => r.error !== null)!.error!;
  assert.equal(refused.status, 429);
  assert.match(refused.message, /10 requests per minute \(rpm\), and 10 were admitted/);
  assert.equal(refused.headers["retry-after"], "60");
  for (const r of admitted) r.admission!.release(spentOf({}, 0));
  clock.advance(59_999);
  assert.ok((await attempt(a, requestOf(key, model))).error, "still inside the window");
  clock.advance(1);
  assert.ok((await attempt(b, requestOf(key, model))).admission, "the window slid");
  a.close();
  b.close();
});

backendTest(
  "shared: requests sharing a client's x-request-id are each counted and held",
  async (made) => {
    const { a, b } = twoInstances(made);
    const key = keyWith({ rpm: 3, maxParallel: 2, budgetUsd: 10 });
    const same = () => ({ ...requestOf(key, model, { maxTokens: 1_000 }), requestId: "req-mine" });
    const first = (await attempt(a, same())).admission!;
    // Same turn, same instance; then another instance: each is a request of its own.
    const [second, third] = await Promise.all([attempt(a, same()), attempt(b, same())]);
    assert.ok(second.admission, "the second is admitted");
    assert.equal(third.error?.status, 429, "max_parallel 2: the third waits for a slot");
    assert.match(third.error!.message, /max_parallel/);
    first.release(spentOf({ outputTokens: 10 }, 0.01));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One slot back; the ending of one did not end the other's hold.
    const fourth = (await attempt(b, same())).admission!;
    assert.ok(fourth, "a slot came back");
    assert.equal((await attempt(a, same())).error?.status, 429, "rpm 3 reached");
    second.admission!.release(spentOf({}, 0));
    fourth.release(spentOf({}, 0));
    a.close();
    b.close();
  },
);

backendTest("shared: max_parallel counts in-flight requests of both instances", async (made) => {
  const { a, b } = twoInstances(made);
  const team = { id: "t1", policy: { maxParallel: 3 } };
  const alice = keyWith({}, team, "key_alice");
  const bob = keyWith({ maxParallel: 5 }, team, "key_bob");
  const held = [
    (await attempt(a, requestOf(alice, model))).admission!,
    (await attempt(b, requestOf(bob, model))).admission!,
    (await attempt(a, requestOf(bob, model))).admission!,
  ];
  const refused = (await attempt(b, requestOf(alice, model))).error!;
  assert.match(refused.message, /team "t1" \(shared by its keys\): max_parallel is 3/);
  held[0]!.release(spentOf({}, 0));
  const next = (await attempt(b, requestOf(alice, model))).admission;
  assert.ok(next);
  for (const admission of [...held.slice(1), next]) admission.release(spentOf({}, 0));
  const rates = await a.rates(bob);
  assert.deepEqual(rates.parallel, { scope: "team", limit: 3, inFlight: 0 });
});

backendTest("shared: tpm counts estimates, then the real tokens at release", async (made) => {
  const { clock, a, b } = twoInstances(made);
  const key = keyWith({ tpm: 1_000 });
  const first = (await attempt(a, requestOf(key, model, { bodyBytes: 2_000 }))).admission!; // 500
  const second = (await attempt(b, requestOf(key, model, { bodyBytes: 1_600 }))).admission!; // 400
  const refused = (await attempt(a, requestOf(key, model, { bodyBytes: 800 }))).error!; // 200
  assert.match(
    refused.message,
    /1000 tokens per minute \(tpm\); 900 were counted .* needs about 200/,
  );
  first.release(spentOf({ inputTokens: 100, outputTokens: 50 }, 0)); // 150: 550 counted
  assert.ok((await attempt(b, requestOf(key, model, { bodyBytes: 800 }))).admission);
  const never = (await attempt(b, requestOf(key, model, { bodyBytes: 8_000 }))).error!;
  assert.match(never.message, /can never fit/);
  assert.equal(never.headers["retry-after"], undefined);
  const images = await attempt(a, requestOf(key, model, { route: "/v1/images/generations" }));
  assert.ok(images.admission, "images are not counted in tpm");
  second.release(spentOf({}, 0));
  clock.advance(60_000);
  assert.ok((await attempt(a, requestOf(key, model, { bodyBytes: 3_600 }))).admission);
});

backendTest(
  "shared: a budget with reservations held across both instances; release settles",
  async (made) => {
    const { a, b, store } = twoInstances(made, 2);
    const key = keyWith({ budgetUsd: 10, budgetPeriod: "month" });
    const results = await Promise.all(
      Array.from(
        { length: 12 },
        (_, i) => attempt(i % 2 ? a : b, requestOf(key, model, { maxTokens: 1_000 })),
      ),
    );
    const admitted = results.flatMap((r) => r.admission ? [r.admission] : []);
    assert.equal(admitted.length, 8, "$2 settled + 8 × $1");
    const refused = results.find((r) => r.error)!.error!;
    assert.equal(refused.code, "insufficient_quota");
    assert.match(
      refused.message,
      /\$10\.00 spent this period \(\$2\.00 settled \+ \$8\.00 held by 8 requests/,
    );
    assert.equal(refused.headers["retry-after"], "1");
    assert.ok(store.queries.length <= 2, "the ledger is read once per instance at most");
    admitted[0]!.release(spentOf({ outputTokens: 500 }, 0.5));
    let status = await b.status(key);
    assert.equal(status.key?.spentUsd, 2 + 0.5 + 7);
    assert.equal(status.inFlightUsd, 7);
    for (const admission of admitted.slice(1)) admission.release(spentOf({}, 1));
    status = await a.status(key);
    assert.equal(status.key?.spentUsd, 9.5);
    assert.equal(status.inFlightUsd, 0);
    assert.ok((await attempt(a, requestOf(key, model, { maxTokens: 500 }))).admission);
    a.close();
  },
);

backendTest(
  "shared: a crashed holder's in-flight slot and budget hold expire with its lease",
  async (made) => {
    const { clock, a, b } = twoInstances(made, 0, 1_000);
    const key = keyWith({ maxParallel: 1, budgetUsd: 1 });
    const crashed = (await attempt(a, requestOf(key, model, { maxTokens: 1_000 }))).admission;
    assert.ok(crashed);
    a.close(); // no release, no heartbeat: the process is gone
    assert.match(
      (await attempt(b, requestOf(key, model, { maxTokens: 1 }))).error!.message,
      /Budget/,
    );
    clock.advance(999);
    assert.ok((await attempt(b, requestOf(key, model, { maxTokens: 1 }))).error);
    clock.advance(1);
    const next = (await attempt(b, requestOf(key, model, { maxTokens: 1_000 }))).admission;
    assert.ok(next, "the lease expired: slot and $1 hold are free");
    next.release(spentOf({}, 0.25));
    assert.equal((await b.status(key)).key?.spentUsd, 0.25, "the crashed hold added nothing");
  },
);

backendTest("shared: headers and refusals equal the in-process Governor's", async (made) => {
  const { clock, a, b } = twoInstances(made);
  const local = new Governor({ store: fakeLedger(() => 0), now: clock.now });
  const team = { id: "t", policy: { rpm: 4, tpm: 5_000 } satisfies Policy };
  const key = keyWith({ rpm: 6, tpm: 3_000 }, team);
  const routes = ["/v1/chat/completions", "/v1/messages"];
  const open: Admission[] = [];
  for (let i = 0; i < 8; i++) {
    const request = requestOf(key, model, { bodyBytes: 1_000 + 300 * i, route: routes[i % 2] });
    const shared = await attempt(i % 2 ? a : b, request);
    const mine = await attempt(local, { ...request, requestId: crypto.randomUUID() });
    assert.deepEqual(shared.admission?.headers, mine.admission?.headers, `headers of #${i}`);
    assert.equal(shared.error?.message, mine.error?.message, `refusal of #${i}`);
    assert.deepEqual(shared.error?.headers, mine.error?.headers, `refusal headers of #${i}`);
    if (shared.admission && mine.admission) open.push(shared.admission, mine.admission);
    if (i === 2) { for (const o of open.splice(0)) o.release(spentOf({ inputTokens: 10 }, 0)); }
    clock.advance(7_000);
  }
  for (const o of open) o.release(spentOf({}, 0));
  assert.deepEqual(await a.rates(key), local.rates(key));
});
