/**
 * Test helpers: the backends every behaviour test runs on (memory, and Redis at
 * 127.0.0.1:6379 when it answers), each test under its own random key prefix, deleted after.
 * @module
 */
import { Redis } from "ioredis";
import { LIMITS_CLIENT_OPTIONS } from "./create_limits.ts";
import type { LimitsBackend } from "./backend.ts";
import { MemoryLimits } from "./memory_limits.ts";
import { RedisLimits } from "./redis_limits.ts";

/** Where the shared Redis of the tests is. */
export const TEST_REDIS = { host: "127.0.0.1", port: 6379 };

async function reachable(): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: TEST_REDIS.host, port: TEST_REDIS.port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/** Whether the tests' Redis answers. */
export const redisUp = await reachable();

/** A client as production makes it (its options, and a short timeout), once ready. */
export async function testClient(port = TEST_REDIS.port): Promise<Redis> {
  const redis = new Redis({
    host: TEST_REDIS.host,
    port,
    ...LIMITS_CLIENT_OPTIONS,
    commandTimeout: 500,
    lazyConnect: true,
  });
  await redis.connect();
  return redis;
}

/** A backend for one test, and its clean-up. */
export interface TestBackend {
  backend: LimitsBackend;
  /** The Redis client and prefix (Redis only). */
  redis?: { client: Redis; prefix: string };
  close(): Promise<void>;
}

/** A fresh Redis backend under a random prefix; `close` deletes its keys. */
export async function redisBackend(): Promise<TestBackend> {
  const client = await testClient();
  const prefix = `gatehouse-test:${crypto.randomUUID()}:`;
  return {
    backend: new RedisLimits({ redis: client, prefix }),
    redis: { client, prefix },
    async close() {
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      await client.quit();
    },
  };
}

/** Registers `fn` as a test on Redis (ignored, saying why, when no Redis answers at
 * 127.0.0.1:6379), with a fresh prefix whose keys are deleted afterwards. */
export function redisTest(name: string, fn: (made: TestBackend) => Promise<void>): void {
  Deno.test({
    name: redisUp ? `${name} [redis]` : `${name} [redis: ignored, no Redis at 127.0.0.1:6379]`,
    ignore: !redisUp,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const made = await redisBackend();
      try {
        await fn(made);
      } finally {
        await made.close();
      }
    },
  });
}

/** Registers `fn` as two tests: on MemoryLimits, and on Redis ({@link redisTest}). */
export function backendTest(name: string, fn: (made: TestBackend) => Promise<void>): void {
  Deno.test(`${name} [memory]`, async () => {
    await fn({ backend: new MemoryLimits(), close: () => Promise.resolve() });
  });
  redisTest(name, fn);
}
