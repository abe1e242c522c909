/**
 * Limits that survive Redis going away: a {@link FailoverLimits} admits through a
 * `SharedGovernor` over `RedisLimits` while Redis answers, and when a call fails or ioredis says
 * the connection is down it switches, for new requests, to:
 *
 * - `local` (the default): an in-process `Governor`, a fresh one per outage (its budgets load
 *   the ledger's settled spend, so limits stay enforced per process, not shared);
 * - `reject`: a 503 `limits_unavailable` for every request under a limit (a key without limits
 *   needs no shared state and still goes on; `count_tokens` too).
 *
 * One `warn` line when it switches, one `info` line when it rejoins (ioredis "ready" again, or a
 * probe's PING answered after a failed call on a live connection). A hold is released where it
 * was taken: a Redis hold whose release fails is left to its lease. On rejoining, the Redis
 * budget state of every scope that spent locally (or whose release failed) is deleted, so the
 * next admission reloads the settled spend from the ledger. The admission path never waits on a
 * dead Redis: the client has no offline queue and a short command timeout (`create_limits.ts`).
 * @module
 */
import type { Redis } from "ioredis";
import { GatewayError } from "../../core/errors.ts";
import type { Admission, AdmissionRequest, Admitter } from "../../gateway/admission.ts";
import type { Logger } from "../../gateway/exchange.ts";
import type { KeyRecord, Store } from "../../store/store.ts";
import { COUNT_TOKENS_ROUTE, Governor, type GovernorStatus } from "../governor.ts";
import { hasLimits } from "../scope.ts";
import type { ScopeId } from "./backend.ts";
import { RedisLimits } from "./redis_limits.ts";
import { LimitsBackendError, SharedGovernor } from "./shared_governor.ts";

/** Where the limits of a gateway stand, for `/readyz` and the start-up line. */
export interface LimitsState {
  backend: "redis" | "memory" | "local";
  /** Whether the limits are shared with other processes right now. */
  shared: boolean;
  /** Unix ms of the last change. */
  since: number;
  detail: string;
}

/** What to do for new requests while Redis is down. */
export type OnRedisDown = "local" | "reject";

/** How a {@link FailoverLimits} is built. */
export interface FailoverOptions {
  redis: Redis;
  /** `host:port` of Redis, for messages (never a password). */
  target: string;
  onRedisDown: OnRedisDown;
  store: Pick<Store, "spend">;
  log: Logger;
  now?: () => number;
  prefix?: string;
  leaseMs?: number;
  /** How often a failed call on a live connection is probed with PING. */
  probeMs?: number;
  /** Fails a Redis call with no answer within this many ms (`RedisLimits`' `timeoutMs`). */
  timeoutMs?: number;
}

/** See the module doc. */
export class FailoverLimits implements Admitter {
  readonly #options: FailoverOptions;
  readonly #backend: RedisLimits;
  readonly #shared: SharedGovernor;
  readonly #now: () => number;
  readonly #dirty = new Map<string, ScopeId>();
  #local: Governor | null = null;
  #up = false;
  #since: number;
  #probe: ReturnType<typeof setInterval> | null = null;
  #closed = false;

  /** Limits over `options.redis`, switching as the module doc says. */
  constructor(options: FailoverOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#since = this.#now();
    this.#backend = new RedisLimits({
      redis: options.redis,
      prefix: options.prefix,
      timeoutMs: options.timeoutMs,
    });
    this.#shared = new SharedGovernor({
      backend: this.#backend,
      store: options.store,
      now: options.now,
      leaseMs: options.leaseMs,
      onError: (error, scopes) => {
        this.#mark(scopes);
        this.#down(error);
      },
    });
    const redis = options.redis;
    redis.on("ready", () => this.#rejoin());
    redis.on("error", (error: Error) => this.#down(error));
    redis.on("close", () => this.#down(new Error("connection closed")));
    if (redis.status === "ready") this.#up = true;
  }

  /** Admits through Redis while it is up, else as the mode says. */
  admit(request: AdmissionRequest): Admission | Promise<Admission> {
    if (!this.#up) return this.#fallback(request);
    const admitted = this.#shared.admit(request);
    if (!(admitted instanceof Promise)) return admitted;
    return admitted.catch((error) => {
      // A refusal, or the store failing the budget's ledger read, is not Redis being down.
      if (!(error instanceof LimitsBackendError)) throw error;
      this.#down(error.cause);
      return this.#fallback(request);
    });
  }

  /** The key's budgets and rates from where admissions go now. */
  status(key: KeyRecord): Promise<GovernorStatus> {
    if (!this.#up) return this.#localGovernor().status(key);
    return this.#shared.status(key).catch((error) => {
      if (!(error instanceof LimitsBackendError)) throw error;
      this.#down(error.cause);
      return this.#localGovernor().status(key);
    });
  }

  /** Resolves once Redis is ready, or after `timeoutMs` (whichever comes first), so a start-up
   * reports where limits are really counted. */
  ready(timeoutMs: number): Promise<void> {
    if (this.#up) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#options.redis.off("ready", ready);
        resolve();
      };
      // "ready" listeners run in order: this one after the rejoin's start, so wait a turn.
      const ready = () => setTimeout(done, 0);
      const timer = setTimeout(done, timeoutMs);
      this.#options.redis.on("ready", ready);
    });
  }

  /** Where the limits stand. */
  state(): LimitsState {
    const target = this.#options.target;
    if (this.#up) {
      return {
        backend: "redis",
        shared: true,
        since: this.#since,
        detail: `limits shared through Redis at ${target}`,
      };
    }
    const reject = this.#options.onRedisDown === "reject";
    return {
      backend: reject ? "redis" : "local",
      shared: false,
      since: this.#since,
      detail: reject
        ? `Redis at ${target} is unreachable: requests under a limit are refused (503)`
        : `Redis at ${target} is unreachable: limits counted in this process until it is back`,
    };
  }

  /** Stops the heartbeat, the probe and the calls' deadline timer (the caller closes the
   * client). */
  close(): void {
    this.#closed = true;
    this.#shared.close();
    this.#stopProbe();
    this.#backend.close();
  }

  #fallback(request: AdmissionRequest): Admission | Promise<Admission> {
    const { key } = request;
    const limited = hasLimits(key.policy) || (key.team !== null && hasLimits(key.teamPolicy));
    if (this.#options.onRedisDown === "reject" && limited && request.route !== COUNT_TOKENS_ROUTE) {
      throw new GatewayError(
        "unavailable",
        503,
        `Limits are unavailable: Redis at ${this.#options.target} is unreachable and ` +
          "GATEHOUSE_LIMITS_ON_REDIS_DOWN=reject is set. Retry shortly.",
        { code: "limits_unavailable", headers: { "retry-after": "1" } },
      );
    }
    if (key.policy.budgetUsd !== undefined) this.#mark([{ kind: "key", id: key.id }]);
    if (key.team !== null && key.teamPolicy?.budgetUsd !== undefined) {
      this.#mark([{ kind: "team", id: key.team }]);
    }
    return this.#localGovernor().admit(request);
  }

  #localGovernor(): Governor {
    return this.#local ??= new Governor({ store: this.#options.store, now: this.#options.now });
  }

  #mark(scopes: ScopeId[]): void {
    for (const scope of scopes) this.#dirty.set(`${scope.kind}:${scope.id}`, scope);
  }

  #down(error: unknown): void {
    if (this.#closed) return;
    // Only a switch is logged: a Redis not reachable at start-up shows in state() instead.
    if (this.#up) {
      this.#since = this.#now();
      const mode = this.#options.onRedisDown;
      this.#options.log.warn(
        `limits: Redis at ${this.#options.target} is unreachable; ` +
          (mode === "reject" ? "refusing requests under a limit" : "counting limits locally"),
        { mode, error: error instanceof Error ? error.message : String(error) },
      );
    }
    this.#up = false;
    // A failed call on a connection ioredis still calls ready gets no "ready" event: probe it.
    if (this.#options.redis.status === "ready") this.#startProbe();
  }

  async #rejoin(): Promise<void> {
    if (this.#up || this.#closed) return;
    try {
      const dirty = [...this.#dirty.values()];
      await this.#backend.forget(dirty);
      for (const scope of dirty) this.#dirty.delete(`${scope.kind}:${scope.id}`);
    } catch {
      return; // still unreachable: the next "ready" or probe tries again
    }
    this.#stopProbe();
    this.#up = true;
    this.#local = null;
    this.#since = this.#now();
    this.#options.log.info(`limits: shared through Redis at ${this.#options.target}`, {
      target: this.#options.target,
    });
  }

  #startProbe(): void {
    if (this.#probe !== null) return;
    this.#probe = setInterval(() => {
      this.#backend.ping().then(() => this.#rejoin(), () => {});
    }, this.#options.probeMs ?? 1_000);
    if (typeof this.#probe === "number") Deno.unrefTimer(this.#probe);
  }

  #stopProbe(): void {
    if (this.#probe !== null) clearInterval(this.#probe);
    this.#probe = null;
  }
}
