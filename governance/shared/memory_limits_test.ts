import assert from "node:assert/strict";
import type { AdmitCall } from "./backend.ts";
import { MemoryLimits } from "./memory_limits.ts";

const call = (requestId: string, now: number, extra: Partial<AdmitCall> = {}): AdmitCall => ({
  requestId,
  now,
  leaseMs: 1_000,
  tokens: 10,
  reservation: 1,
  scopes: [{ kind: "key", id: "k", maxParallel: 1, budget: { usd: 5, period: "total", start: 0 } }],
  ...extra,
});

Deno.test("memory: asks for a load, sets it once, then checks budget and parallel in order", async () => {
  const memory = new MemoryLimits();
  assert.deepEqual(await memory.admit(call("a", 0)), { kind: "load", scopes: [0] });
  const loaded = call("a", 0);
  loaded.scopes[0]!.budget!.loaded = 4.5;
  const first = await memory.admit(loaded);
  assert.equal(first.kind, "refused", "4.5 + 1 > 5: the budget refuses first");
  assert.deepEqual(first.kind === "refused" && first.refused, { check: "budget", scope: 0 });
  const small = await memory.admit(call("b", 0, { reservation: 0.5 }));
  assert.equal(small.kind, "admitted");
  assert.deepEqual(small.kind === "admitted" && small.others, [4.5]);
  const second = await memory.admit(call("c", 0, { reservation: 0 }));
  assert.deepEqual(second.kind === "refused" && second.refused, { check: "parallel", scope: 0 });
});

Deno.test("memory: renew keeps a lease; dropOwner and expiry end holds without cost", async () => {
  const memory = new MemoryLimits();
  const scopes = [{ kind: "key" as const, id: "k", maxParallel: 1 }];
  assert.equal((await memory.admit({ ...call("a", 0), scopes, owner: "w1" })).kind, "admitted");
  await memory.renew({ now: 900, leaseMs: 1_000, holds: [{ requestId: "a", scopes }] });
  assert.equal((await memory.admit({ ...call("b", 1_500), scopes })).kind, "refused");
  await memory.dropOwner("w1");
  assert.equal((await memory.admit({ ...call("b", 1_500), scopes })).kind, "admitted");
  assert.equal((await memory.admit({ ...call("c", 2_400), scopes })).kind, "refused");
  assert.equal((await memory.admit({ ...call("c", 2_500), scopes })).kind, "admitted", "expired");
});
