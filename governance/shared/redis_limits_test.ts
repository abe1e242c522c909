import assert from "node:assert/strict";
import type { Redis } from "ioredis";
import { fakeClock, fakeLedger, keyWith, modelWith, requestOf, spentOf } from "../testing.ts";
import { SharedGovernor } from "./shared_governor.ts";
import { backendTest, redisBackend, redisTest } from "./test_backends.ts";
import type { AdmitCall } from "./backend.ts";

const model = modelWith("gpt-test", { input: 0, output: 1_000 });

/** Counts the commands `redis` sends (a script, loaded or not, is one EVALSHA). */
function countCommands(redis: Redis): { count: number; names: string[] } {
  const seen = { count: 0, names: [] as string[] };
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
    seen.count++;
    seen.names.push(command.name);
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as Redis["sendCommand"];
  return seen;
}

redisTest(
  "redis: one round trip per admit and per release; keys under the prefix",
  async (made) => {
    const client = made.redis!.client;
    const governor = new SharedGovernor({ backend: made.backend, store: fakeLedger(() => 1) });
    const team = { id: "t", policy: { rpm: 100, budgetUsd: 50 } };
    const key = keyWith({ rpm: 100, tpm: 100_000, maxParallel: 5, budgetUsd: 10 }, team);
    (await governor.admit(requestOf(key, model))).release(spentOf({}, 0)); // loads, scripts
    await governor.status(key);
    const seen = countCommands(client);
    const admission = await governor.admit(requestOf(key, model, { maxTokens: 100 }));
    assert.equal(seen.count, 1, `admit: ${seen.names}`);
    admission.release(spentOf({ outputTokens: 50 }, 0.05));
    // Auto-pipelining sends the release on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(seen.count, 2, `release: ${seen.names}`);
    assert.deepEqual(seen.names, ["evalsha", "evalsha"]);
    const keys = await client.keys(`${made.redis!.prefix}*`);
    assert.ok(keys.length > 0);
    for (const k of keys) assert.ok((await client.pttl(k)) > 0, `${k} has a TTL`);
    governor.close();
  },
);

redisTest("redis: the admissions and releases of one turn go as one command each", async (made) => {
  const client = made.redis!.client;
  const governor = new SharedGovernor({ backend: made.backend, store: fakeLedger(() => 1) });
  const key = keyWith({ rpm: 100, tpm: 100_000, maxParallel: 8, budgetUsd: 10 }, {
    id: "t",
    policy: { rpm: 100, budgetUsd: 50 },
  });
  (await governor.admit(requestOf(key, model))).release(spentOf({}, 0)); // loads, scripts
  await new Promise((resolve) => setTimeout(resolve, 10));
  const seen = countCommands(client);
  const admissions = await Promise.all(
    Array.from({ length: 8 }, () => governor.admit(requestOf(key, model, { maxTokens: 10 }))),
  );
  assert.deepEqual(seen.names, ["evalsha"]);
  // The eighth took the last parallel slot: the ninth, in a turn of its own, is refused.
  await assert.rejects(Promise.resolve(governor.admit(requestOf(key, model))), /max_parallel/);
  for (const admission of admissions) admission.release(spentOf({ outputTokens: 5 }, 0.01));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(seen.names, ["evalsha", "evalsha", "evalsha"]);
  // Every slot came back: eight more fit, again in one command.
  const again = await Promise.all(
    Array.from({ length: 8 }, () => governor.admit(requestOf(key, model, { maxTokens: 10 }))),
  );
  assert.equal(seen.names.length, 4);
  for (const admission of again) admission.release(spentOf({}, 0));
  await new Promise((resolve) => setTimeout(resolve, 10));
  governor.close();
});

redisTest("redis: a turn's releases go before its admissions", async (made) => {
  const client = made.redis!.client;
  const governor = new SharedGovernor({ backend: made.backend, store: fakeLedger(() => 1) });
  const key = keyWith({ maxParallel: 1 });
  const first = await governor.admit(requestOf(key, model));
  const seen = countCommands(client);
  // In one turn: an admission asked first, the only slot's release second.
  const next = governor.admit(requestOf(key, model));
  first.release(spentOf({}, 0));
  const admitted = await next;
  assert.deepEqual(seen.names, ["evalsha", "evalsha"]);
  admitted.release(spentOf({}, 0));
  await new Promise((resolve) => setTimeout(resolve, 10));
  governor.close();
});

backendTest(
  "tpm: an entry settled at 0 tokens leaves the window without failing the next call",
  async (made) => {
    const clock = fakeClock();
    const governor = new SharedGovernor({
      backend: made.backend,
      store: fakeLedger(),
      now: clock.now,
    });
    const key = keyWith({ tpm: 100_000 });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
    // A request that ended with no usage (refused upstream, client gone): 0 tokens settled.
    (await governor.admit(requestOf(key, model))).release(spentOf({}, 0));
    await settle();
    clock.advance(30_000);
    (await governor.admit(requestOf(key, model))).release(spentOf({ inputTokens: 40 }, 0));
    await settle();
    clock.advance(31_000);
    // The first entry leaves the window, alone (a drop of 0 tokens), while the second stays.
    const admission = await governor.admit(requestOf(key, model, { bodyBytes: 400 }));
    assert.equal(
      Number(admission.headers?.["x-ratelimit-remaining-tokens"]),
      100_000 - 40 - (admission.inputEstimate ?? 0),
    );
    admission.release(spentOf({}, 0));
    await settle();
    governor.close();
  },
);

redisTest(
  "redis: a window entry written at a clock a window behind leaves it for a later call of the batch",
  async (made) => {
    const alone = await redisBackend();
    try {
      const at = Date.UTC(2026, 10, 3, 12);
      const call = (requestId: string, now: number, peek = false): AdmitCall => ({
        requestId,
        now,
        leaseMs: 30_000,
        tokens: 100,
        reservation: 0,
        scopes: [{ kind: "key", id: "k", rpm: 5, tpm: 1_000 }],
        peek,
      });
      // The second call's clock is 61 s behind: its entries are out of the window at the first
      // call's time, where the third call reads the window again.
      const calls = [call("a", at, true), call("b", at - 61_000), call("c", at, true)];
      const batched = await Promise.all(calls.map((c) => made.backend.admit(c)));
      const oneByOne = [];
      for (const c of calls) oneByOne.push(await alone.backend.admit(c));
      assert.deepEqual(batched, oneByOne);
      const third = batched[2]!;
      assert.equal(third.kind, "admitted");
      if (third.kind === "admitted") {
        assert.equal(third.figures[0]!.requests?.count, 0);
        assert.equal(third.figures[0]!.tokens?.used, 0);
      }
    } finally {
      await alone.close();
    }
  },
);
