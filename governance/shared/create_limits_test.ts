import assert from "node:assert/strict";
import { memoryLogger } from "../../gateway/log.ts";
import { Governor } from "../governor.ts";
import { fakeLedger } from "../testing.ts";
import { createLimits, redisTarget } from "./create_limits.ts";
import { SharedGovernor } from "./shared_governor.ts";

Deno.test("createLimits: a Governor without Redis or port; a SharedGovernor over a port", async () => {
  const base = { onRedisDown: "local" as const, store: fakeLedger(), log: memoryLogger() };
  const plain = createLimits(base);
  assert.ok(plain.admitter instanceof Governor);
  assert.deepEqual({ ...plain.state(), since: 0 }, {
    backend: "local",
    shared: false,
    since: 0,
    detail: "limits counted in this process's memory",
  });
  const channel = new MessageChannel();
  const ported = createLimits({ ...base, port: channel.port2 });
  assert.ok(ported.admitter instanceof SharedGovernor);
  assert.equal(ported.state().backend, "memory");
  await ported.close();
  channel.port1.close();
  await plain.close();
});

Deno.test("redisTarget: host and port, never the password", () => {
  assert.equal(redisTarget("redis://:pw@10.0.0.5:6380/0"), "10.0.0.5:6380");
  assert.equal(redisTarget("redis://user:pw@cache"), "cache:6379");
});
