/**
 * {@link RedisLimits}: the limits backend over Redis (ioredis), so every gateway instance on one
 * Redis enforces the same windows, in-flight counts and budgets. Every call is an atomic Lua
 * script (`redis_scripts.ts`, `redis_admit_script.ts`; sent by EVALSHA, loaded again on NOSCRIPT
 * by ioredis's `defineCommand`): the admissions made in one turn of the event loop go as ONE
 * call, the releases as another (`tick_batch.ts`), each answered as if it had been sent alone; a
 * budget flow update is one call, the lease renewals of a process's live holds one per
 * heartbeat (a lease that already ran out stays out). The memory backend answers every call
 * alike (`backends_agree_test.ts`, one call at a time and in batches).
 *
 * The time is the calling process's clock (`now` in every call), so instances need clocks in
 * step (NTP); a window entry is never recorded before the newest one already there.
 * @module
 */
import type { Redis } from "ioredis";
import type {
  AdmitCall,
  AdmitReply,
  FlowCall,
  FlowReply,
  LimitsBackend,
  Refused,
  ReleaseCall,
  RenewCall,
  ScopeFigures,
  ScopeId,
} from "./backend.ts";
import { CallDeadlines } from "./call_deadlines.ts";
import { FLOW, RELEASE, RENEW } from "./redis_scripts.ts";
import { ADMIT } from "./redis_admit_script.ts";
import { TickBatch } from "./tick_batch.ts";

/** The prefix of every key unless told otherwise. */
export const DEFAULT_PREFIX = "gatehouse:";
/** A budget's settled spend unused this long is dropped from Redis (and reloaded from the
 * ledger when next needed). */
export const SPENT_TTL_MS = 10 * 60_000;

type Arg = string | number;
type Script = (...args: Arg[]) => Promise<string | number>;
interface Scripted {
  gatehouseAdmit: Script;
  gatehouseRelease: Script;
  gatehouseFlow: Script;
  gatehouseRenew: Script;
}

/** How a {@link RedisLimits} is built. */
export interface RedisLimitsOptions {
  /** A client made with `enableOfflineQueue: false` and a short command timeout, so a call
   * fails fast while Redis is down (the failover depends on it). */
  redis: Redis;
  /** Prepended to every key (tests isolate themselves with a random one). */
  prefix?: string;
  /** Fails a call with no answer within this many ms ("Command timed out"), by one timer for
   * all calls (`call_deadlines.ts`) rather than ioredis's `commandTimeout`, which arms a timer
   * per command. Unbounded when absent. */
  timeoutMs?: number;
}

interface RawReply {
  load?: number[];
  r?: [Refused["check"], number, number];
  o?: number[] | Record<string, never>;
  f?: number[][];
}

/** A scope's keys, in the order the scripts take them (`redis_scripts.ts`). */
const KEY_SUFFIXES = ["rpm", "tpm", "tpmt", "live", "held", "spent"];
/** Scopes whose key names are kept; past it the memory starts over. */
const MAX_KEY_NAMES = 10_000;

/** The field of a budget period in a scope's `spent` hash. */
const fieldOf = (budget: { period: string; start: number } | null | undefined) =>
  budget ? `${budget.period}:${budget.start}` : "";

function figuresOf(raw: number[][] | undefined): ScopeFigures[] {
  return (raw ?? []).map((f) => {
    const [inFlight = 0, count = -1, rpmReset = 0, used = -1, tpmReset = 0] = f;
    const [settled = -1, held = 0, holds = 0] = f.slice(5);
    return {
      inFlight,
      requests: count < 0 ? null : { count, resetAt: rpmReset },
      tokens: used < 0 ? null : { used, resetAt: tpmReset },
      budget: settled < 0 ? null : { settled, held, holds },
    };
  });
}

function refusedOf([check, scope, wait]: [Refused["check"], number, number]): Refused {
  switch (check) {
    case "budget":
    case "parallel":
      return { check, scope };
    case "rpm":
      return { check, scope, waitMs: wait };
    case "tpm":
      return { check, scope, waitMs: wait < 0 ? Infinity : wait };
  }
}

function replyOf(raw: RawReply): AdmitReply {
  if (raw.load !== undefined) return { kind: "load", scopes: raw.load };
  const figures = figuresOf(raw.f);
  if (raw.r !== undefined) return { kind: "refused", refused: refusedOf(raw.r), figures };
  const others = Array.isArray(raw.o) ? raw.o.map((o) => o < 0 ? null : o) : [];
  return { kind: "admitted", figures, others };
}

/** Shared limits in Redis; see the module doc and `redis_scripts.ts` for the key layout. */
export class RedisLimits implements LimitsBackend {
  readonly #redis: Redis;
  readonly #scripts: Scripted;
  readonly #prefix: string;
  readonly #deadlines: CallDeadlines | null;
  /** The keys of each scope by its base, so a call does not build six strings per scope. */
  readonly #keyNames = new Map<string, string[]>();
  readonly #releases = new TickBatch<ReleaseCall, void>(
    (calls) => this.#releaseBatch(calls),
    (call) => call.requestId,
  );
  /** A turn's releases go before its admissions, so a slot or dollars freed in the turn count
   * for the admissions of the same turn. Peeks all have the id "": each is its own. */
  readonly #admits = new TickBatch<AdmitCall, AdmitReply>(
    (calls) => this.#admitBatch(calls),
    (call) => call.peek ? `peek ${++this.#peeks}` : call.requestId,
    () => this.#releases.flush(),
  );
  #peeks = 0;

  /** Limits kept by `options.redis` under `options.prefix`. */
  constructor(options: RedisLimitsOptions) {
    this.#redis = options.redis;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#deadlines = options.timeoutMs === undefined ? null : new CallDeadlines(options.timeoutMs);
    this.#redis.defineCommand("gatehouseAdmit", { lua: ADMIT });
    this.#redis.defineCommand("gatehouseRelease", { lua: RELEASE });
    this.#redis.defineCommand("gatehouseFlow", { lua: FLOW });
    this.#redis.defineCommand("gatehouseRenew", { lua: RENEW });
    this.#scripts = this.#redis as unknown as Scripted;
  }

  /** Checks every limit of key and team and takes the holds: one script call for every
   * admission of this turn of the event loop (`redis_admit_script.ts`). */
  admit(call: AdmitCall): Promise<AdmitReply> {
    return this.#admits.add(call);
  }

  /** Ends the holds, settles the tpm entries and adds the cost to settled: one script call for
   * every release of this turn of the event loop. */
  release(call: ReleaseCall): Promise<void> {
    return this.#releases.add(call);
  }

  async #admitBatch(calls: AdmitCall[]): Promise<AdmitReply[]> {
    const keys = this.#batchKeys();
    // The script's ARGV[1] (`redis_admit_script.ts`): strings where it stores the caller's text.
    const args: unknown[] = [SPENT_TTL_MS];
    for (const call of calls) {
      const scopes = call.scopes.map((scope) => {
        const budget = scope.budget;
        return [
          keys.indexOf(scope),
          scope.rpm ?? -1,
          scope.tpm ?? -1,
          scope.maxParallel ?? -1,
          budget ? String(budget.usd) : -1,
          fieldOf(budget),
          budget?.loaded === undefined ? "" : String(budget.loaded),
        ];
      });
      args.push([
        call.requestId,
        call.now,
        call.leaseMs,
        String(call.tokens ?? -1),
        String(call.reservation),
        call.peek ? "1" : "0",
        scopes,
      ]);
    }
    const reply = await this.#bound(
      this.#scripts.gatehouseAdmit(...keys.args(), JSON.stringify(args)),
    );
    return (JSON.parse(String(reply)) as RawReply[]).map(replyOf);
  }

  async #releaseBatch(calls: ReleaseCall[]): Promise<void[]> {
    const keys = this.#batchKeys();
    const args: unknown[] = [SPENT_TTL_MS];
    for (const call of calls) {
      const scopes = call.scopes.map((scope) => [
        keys.indexOf(scope),
        scope.tpm ? "1" : "0",
        fieldOf(scope.budget),
      ]);
      args.push([
        call.requestId,
        call.now,
        String(Math.round(call.tokens)),
        String(call.cost),
        scopes,
      ]);
    }
    await this.#bound(this.#scripts.gatehouseRelease(...keys.args(), JSON.stringify(args)));
    return calls.map(() => undefined);
  }

  /** One round trip: raises the hold to the spend so far; answers everyone else's. */
  async flow(call: FlowCall): Promise<FlowReply> {
    const args = this.#keysOf(call.scopes);
    const rest: Arg[] = [call.now, String(call.actual), call.scopes.length, SPENT_TTL_MS];
    for (const scope of call.scopes) rest.push(fieldOf(scope.budget));
    args.push(call.requestId, JSON.stringify(rest));
    const reply = await this.#bound(this.#scripts.gatehouseFlow(...args));
    const raw = JSON.parse(String(reply)) as number[] | object;
    const others = Array.isArray(raw) ? raw : [];
    return { others: others.map((o: number) => o < 0 ? null : o) };
  }

  /** One round trip: every live hold's lease extended (a hold whose lease already ran out stays
   * gone, as in the memory backend). */
  async renew(call: RenewCall): Promise<void> {
    if (call.holds.length === 0) return;
    const keys: string[] = [];
    const rest: Arg[] = [call.now, call.now + call.leaseMs, call.leaseMs + 60_000];
    for (const hold of call.holds) {
      for (const scope of hold.scopes) {
        const base = this.#base(scope);
        keys.push(`${base}live`, `${base}held`);
        rest.push(hold.requestId);
      }
    }
    await this.#bound(this.#scripts.gatehouseRenew(keys.length, ...keys, JSON.stringify(rest)));
  }

  /** Deletes the settled spend of `scopes` (reloaded from the ledger at their next admission). */
  async forget(scopes: ScopeId[]): Promise<void> {
    if (scopes.length === 0) return;
    await this.#bound(this.#redis.del(...scopes.map((scope) => `${this.#base(scope)}spent`)));
  }

  /** A PING, bounded like every other call (the failover's probe). */
  async ping(): Promise<void> {
    await this.#bound(this.#redis.ping());
  }

  /** Stops the calls' deadline timer (the caller closes the client). */
  close(): void {
    this.#deadlines?.close();
  }

  #bound<T>(call: Promise<T>): Promise<T> {
    return this.#deadlines === null ? call : this.#deadlines.bound(call);
  }

  #base(scope: ScopeId): string {
    return `${this.#prefix}${scope.kind}:${scope.id}:`;
  }

  /** The six keys of `scope`, in the layout of `redis_scripts.ts` (made once per scope and
   * kept). */
  #keysOfScope(scope: ScopeId): string[] {
    const base = this.#base(scope);
    let keys = this.#keyNames.get(base);
    if (keys === undefined) {
      if (this.#keyNames.size >= MAX_KEY_NAMES) this.#keyNames.clear();
      keys = KEY_SUFFIXES.map((suffix) => `${base}${suffix}`);
      this.#keyNames.set(base, keys);
    }
    return keys;
  }

  /** The script's key count and keys: the six of each scope. */
  #keysOf(scopes: ScopeId[]): Arg[] {
    const args: Arg[] = [scopes.length * 6];
    for (const scope of scopes) args.push(...this.#keysOfScope(scope));
    return args;
  }

  /** The scopes of a batch, each once: `indexOf` numbers them from 1 as the scripts do, `args`
   * gives the key count and keys. */
  #batchKeys(): { indexOf(scope: ScopeId): number; args(): Arg[] } {
    const index = new Map<string, number>();
    const keys: Arg[] = [0];
    return {
      indexOf: (scope) => {
        const base = this.#base(scope);
        let i = index.get(base);
        if (i === undefined) {
          i = index.size + 1;
          index.set(base, i);
          keys.push(...this.#keysOfScope(scope));
        }
        return i;
      },
      args: () => {
        keys[0] = index.size * 6;
        return keys;
      },
    };
  }
}
