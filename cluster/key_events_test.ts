import assert from "node:assert/strict";
import { memoryLogger } from "../gateway/log.ts";
import { shareKeyChanges } from "./key_events.ts";
import { redisReachable } from "./redis_probe.ts";

const REDIS_URL = Deno.env.get("TEST_REDIS_URL") ?? "redis://127.0.0.1:6379";
const reachable = await redisReachable(REDIS_URL);

/** A store that only counts what the pub/sub does to it. */
function fakeStore() {
  const listeners = new Set<() => void>();
  return {
    forgot: 0,
    change() {
      for (const listener of listeners) listener();
    },
    forgetVerifiedKeys() {
      this.forgot++;
    },
    onKeysChanged(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

async function until(check: () => boolean, ms: number): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - start;
}

Deno.test({
  name: reachable
    ? "key events: a change through one instance makes the others forget their verified keys"
    : `key events: skipped, Redis at ${REDIS_URL} is not reachable (set TEST_REDIS_URL)`,
  ignore: !reachable,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const channel = `gatehouse:test:keys:${crypto.randomUUID()}`;
    const a = fakeStore();
    const b = fakeStore();
    const c = fakeStore();
    const log = memoryLogger();
    const events = [
      shareKeyChanges({ redisUrl: REDIS_URL, store: a, instanceId: "a", log, channel }),
      shareKeyChanges({ redisUrl: REDIS_URL, store: b, instanceId: "b", log, channel }),
      shareKeyChanges({ redisUrl: REDIS_URL, store: c, instanceId: "c", log, channel }),
    ];
    try {
      // Subscriptions are made on connect: give them a moment before the first publish.
      await new Promise((resolve) => setTimeout(resolve, 300));
      a.change();
      const ms = await until(() => b.forgot === 1 && c.forgot === 1, 1_000);
      assert.ok(ms < 1_000);
      assert.equal(a.forgot, 0, "the publisher's own store cleared itself when it changed");
      b.change();
      await until(() => a.forgot === 1 && c.forgot === 2, 1_000);
      assert.equal(b.forgot, 1);
      assert.deepEqual(log.lines.filter((line) => line.level !== "info"), []);
    } finally {
      await Promise.all(events.map((e) => e.close()));
    }
  },
});
