/**
 * The edges where the memory backend and the Redis scripts once answered differently (found by
 * `backends_agree_test.ts`), each pinned on both: a release after its lease ran out, a renewal
 * of a lease that ran out, a forgotten budget, and a budget flow while the settled spend is not
 * known.
 */
import assert from "node:assert/strict";
import { periodStart } from "../policy.ts";
import type { AdmitCall, HeldScope, LimitsBackend, ScopeLimits } from "./backend.ts";
import { backendTest } from "./test_backends.ts";

const T0 = Date.UTC(2026, 10, 3, 12);

function admitCall(id: string, now: number, scope: ScopeLimits, extra: Partial<AdmitCall> = {}) {
  return {
    requestId: id,
    now,
    leaseMs: 30_000,
    tokens: null,
    reservation: 0,
    scopes: [scope],
    ...extra,
  };
}

/** Admits, loading the budget's settled spend (`loaded`) when the backend asks for it. */
async function admit(backend: LimitsBackend, call: AdmitCall, loaded = 0) {
  const reply = await backend.admit(call);
  if (reply.kind !== "load") return reply;
  return await backend.admit({
    ...call,
    scopes: call.scopes.map((s) => s.budget ? { ...s, budget: { ...s.budget, loaded } } : s),
  });
}

const budgetOf = (usd: number, now: number) => ({
  usd,
  period: "month" as const,
  start: periodStart("month", now),
});

backendTest("a release after its lease ran out still settles its tpm entry", async (made) => {
  const b = made.backend;
  const scope = { kind: "key" as const, id: `k-${crypto.randomUUID()}`, tpm: 1_000 };
  const first = await admit(b, admitCall("r1", T0, scope, { tokens: 100, leaseMs: 1_000 }));
  assert.equal(first.kind, "admitted");
  // The lease runs out (its holder stopped renewing), then the request ends after all.
  const later = await admit(b, admitCall("r2", T0 + 2_000, scope, { tokens: 0 }));
  assert.equal(later.kind, "admitted");
  const held: HeldScope = { kind: scope.kind, id: scope.id, tpm: true, budget: null };
  await b.release({ requestId: "r1", now: T0 + 3_000, tokens: 700, cost: 0, scopes: [held] });
  const peek = await admit(b, admitCall("p", T0 + 4_000, scope, { tokens: 0, peek: true }));
  assert.equal(peek.kind, "admitted");
  assert.equal(peek.figures[0]!.tokens!.used, 700, "the real tokens count, not the estimate");
});

backendTest("a renewal does not bring back a lease that already ran out", async (made) => {
  const b = made.backend;
  const scope = { kind: "key" as const, id: `k-${crypto.randomUUID()}`, maxParallel: 1 };
  assert.equal((await admit(b, admitCall("r1", T0, scope, { leaseMs: 1_000 }))).kind, "admitted");
  // Late: the lease ran out at T0 + 1 s, and nothing has pruned it yet.
  await b.renew({
    now: T0 + 1_500,
    leaseMs: 30_000,
    holds: [{ requestId: "r1", scopes: [scope] }],
  });
  const next = await admit(b, admitCall("r2", T0 + 1_600, scope));
  assert.equal(next.kind, "admitted", "the slot is free");
  assert.equal(next.figures[0]!.inFlight, 1);
});

backendTest(
  "a forgotten budget reloads its settled spend; holds in flight stay counted",
  async (made) => {
    const b = made.backend;
    const id = `k-${crypto.randomUUID()}`;
    const scope = { kind: "key" as const, id, budget: budgetOf(2, T0) };
    const first = await admit(b, admitCall("r1", T0, scope, { reservation: 1 }), 0.5);
    assert.equal(first.kind, "admitted");
    await b.forget([{ kind: "key", id }]);
    const asks = await b.admit(admitCall("r2", T0, scope, { reservation: 0.25 }));
    assert.deepEqual(asks, { kind: "load", scopes: [0] }, "the settled spend is read again");
    const held: HeldScope = { kind: "key", id, tpm: false, budget: scope.budget };
    const flow = await b.flow({ requestId: "r1", now: T0, actual: 1.25, scopes: [held] });
    assert.deepEqual(flow.others, [null], "nobody's spend is known before the reload");
    // Reloaded at $0.75: r1's hold (now $1.25 after its flow) still counts, so $0.25 more fits
    // and $0.125 beyond it does not.
    const fits = await admit(b, admitCall("r2", T0, scope, { reservation: 0 }), 0.75);
    assert.equal(fits.kind, "admitted");
    assert.deepEqual(fits.figures[0]!.budget, { settled: 0.75, held: 1.25, holds: 2 });
    const over = await admit(b, admitCall("r3", T0, scope, { reservation: 0.125 }), 0.75);
    assert.equal(over.kind, "refused");
  },
);
