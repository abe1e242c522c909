import assert from "node:assert/strict";
import type { Redis } from "ioredis";
import { fakeLedger, keyWith, modelWith, requestOf, spentOf } from "../testing.ts";
import { SharedGovernor } from "./shared_governor.ts";
import { redisTest } from "./test_backends.ts";

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
    assert.equal(seen.count, 2, `release: ${seen.names}`);
    assert.deepEqual(seen.names, ["evalsha", "evalsha"]);
    const keys = await client.keys(`${made.redis!.prefix}*`);
    assert.ok(keys.length > 0);
    for (const k of keys) assert.ok((await client.pttl(k)) > 0, `${k} has a TTL`);
    governor.close();
  },
);
