import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { fakeClock, fakeLedger, keyWith, modelWith, requestOf, spentOf } from "../testing.ts";
import { MemoryLimits } from "./memory_limits.ts";
import { PortLimits, serveLimits } from "./port_limits.ts";
import { SharedGovernor } from "./shared_governor.ts";

const model = modelWith();

Deno.test("port: two governors over MessageChannels share one MemoryLimits; a closed owner's holds go", async () => {
  const memory = new MemoryLimits();
  const clock = fakeClock();
  const channels = [new MessageChannel(), new MessageChannel()];
  const served = channels.map((c) => serveLimits(c.port1, memory));
  const backends = channels.map((c) => new PortLimits(c.port2));
  const [a, b] = backends.map((backend) =>
    new SharedGovernor({ backend, store: fakeLedger(), now: clock.now })
  );
  const key = keyWith({ rpm: 4, maxParallel: 2 });
  const held = [await a!.admit(requestOf(key, model)), await b!.admit(requestOf(key, model))];
  await assert.rejects(Promise.resolve(a!.admit(requestOf(key, model))), /max_parallel is 2/);
  await served[0]!.close(); // worker a exited: its hold is dropped
  const next = await b!.admit(requestOf(key, model));
  await assert.rejects(
    Promise.resolve(b!.admit(requestOf(key, model))),
    (error) => error instanceof GatewayError && /max_parallel/.test(error.message),
  );
  held[1]!.release(spentOf({}, 0));
  next.release(spentOf({}, 0));
  (await b!.admit(requestOf(key, model))).release(spentOf({}, 0)); // the 4th this minute
  const rejected = await Promise.resolve(b!.admit(requestOf(key, model))).catch((e) => e);
  assert.match(String(rejected.message), /4 requests per minute/);
  a!.close();
  b!.close();
  for (const backend of backends) backend.close();
  await served[1]!.close();
});
