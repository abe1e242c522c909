/**
 * Which limits a gateway process runs: shared through Redis (with failover) when a Redis URL
 * is configured; shared with the other worker threads through a MessagePort to the main
 * thread's `MemoryLimits` when a port is given; else the in-process `Governor`.
 * @module
 */
import { Redis } from "ioredis";
import type { Admitter } from "../../gateway/admission.ts";
import type { Logger } from "../../gateway/exchange.ts";
import type { Store } from "../../store/store.ts";
import { Governor } from "../governor.ts";
import { FailoverLimits, type LimitsState, type OnRedisDown } from "./failover.ts";

export type { LimitsState };
import { PortLimits } from "./port_limits.ts";
import { SharedGovernor } from "./shared_governor.ts";

/** Milliseconds a Redis command may take before the admission treats Redis as down. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/** The limits' Redis client settings. Fail at once while disconnected, and soon on a dead
 * connection (the limits bound every call to REDIS_COMMAND_TIMEOUT_MS with one timer:
 * `call_deadlines.ts`; ioredis's own commandTimeout would arm one per command): never hang
 * admission. Auto-pipelining sends the calls made in one turn of the event loop (and those made
 * while a batch is out) in one write: ioredis's write through the Node socket layer was a quarter
 * of a Postgres + Redis gateway's CPU, one write per call (bench, c=32, all policies: 366 → 322
 * µs of gateway CPU and 159 → 130 µs of Redis CPU a request). */
export const LIMITS_CLIENT_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  enableAutoPipelining: true,
} as const;

/** How {@link createLimits} chooses. */
export interface LimitsOptions {
  redisUrl?: string;
  onRedisDown: OnRedisDown;
  store: Pick<Store, "spend">;
  log: Logger;
  now?: () => number;
  port?: MessagePort;
  /** Redis key prefix (`gatehouse:` by default). */
  prefix?: string;
  leaseMs?: number;
}

/** The admitter with its state and its end. */
export interface Limits {
  admitter: Admitter;
  /** Resolves once the limits' backend can be used, or after `timeoutMs` when it cannot. */
  ready(timeoutMs: number): Promise<void>;
  state(): LimitsState;
  close(): Promise<void>;
}

/** `host:port` of a Redis URL, without user or password. */
export function redisTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || "6379"}`;
}

/** QUIT, or a hard disconnect when it fails or has no answer within `ms`. QUIT is written at
 * once while auto-pipelined calls wait for the next turn (`setImmediate`): one turn first, so a
 * release made just before is sent ahead of it instead of failing on a closed connection. */
async function quitWithin(redis: Redis, ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("QUIT timed out")), ms);
  });
  try {
    await Promise.race([redis.quit(), late]);
  } catch {
    redis.disconnect();
  } finally {
    clearTimeout(timer);
  }
}

/** See the module doc. */
export function createLimits(options: LimitsOptions): Limits {
  const since = (options.now ?? Date.now)();
  if (options.redisUrl !== undefined && options.redisUrl !== "") {
    const redis = new Redis(options.redisUrl, {
      ...LIMITS_CLIENT_OPTIONS,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
    });
    const failover = new FailoverLimits({
      redis,
      target: redisTarget(options.redisUrl),
      onRedisDown: options.onRedisDown,
      store: options.store,
      log: options.log,
      now: options.now,
      prefix: options.prefix,
      leaseMs: options.leaseMs,
      timeoutMs: REDIS_COMMAND_TIMEOUT_MS,
    });
    return {
      admitter: failover,
      ready: (timeoutMs) => failover.ready(timeoutMs),
      state: () => failover.state(),
      close: async () => {
        failover.close();
        await quitWithin(redis, REDIS_COMMAND_TIMEOUT_MS);
      },
    };
  }
  if (options.port !== undefined) {
    const backend = new PortLimits(options.port);
    const governor = new SharedGovernor({
      backend,
      store: options.store,
      now: options.now,
      leaseMs: options.leaseMs,
    });
    const state: LimitsState = {
      backend: "memory",
      shared: true,
      since,
      detail: "limits shared by this process's worker threads (the main thread's memory)",
    };
    return {
      admitter: governor,
      ready: () => Promise.resolve(),
      state: () => state,
      close: () => {
        governor.close();
        backend.close();
        return Promise.resolve();
      },
    };
  }
  const state: LimitsState = {
    backend: "local",
    shared: false,
    since,
    detail: "limits counted in this process's memory",
  };
  return {
    admitter: new Governor({ store: options.store, now: options.now }),
    ready: () => Promise.resolve(),
    state: () => state,
    close: () => Promise.resolve(),
  };
}
