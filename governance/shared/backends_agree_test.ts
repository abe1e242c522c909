/**
 * The Redis scripts and the memory backend give the same answers: random sequences of
 * admissions, peeks, releases, budget flows, renewals, forgotten budgets and clock steps, on a key and its team
 * with random limits, sent to both; every reply must be equal. The behaviour tests pin the
 * meaning of each limit; this pins that the two implementations of it never drift apart.
 *
 * A longer search: `GATEHOUSE_AGREE_SEQUENCES=3000 GATEHOUSE_AGREE_OPERATIONS=300 deno test -A
 * governance/shared/backends_agree_test.ts` (a failure prints the seed and the calls before it).
 */
import assert from "node:assert/strict";
import type { BudgetPeriod } from "../policy.ts";
import { periodStart } from "../policy.ts";
import type { AdmitCall, HeldScope, LimitsBackend, ReleaseCall, ScopeLimits } from "./backend.ts";
import { MemoryLimits } from "./memory_limits.ts";
import { redisBackend, redisTest } from "./test_backends.ts";
import { seededRandom } from "../../core/seeded_random.ts";

/** Sequences run, and operations in each (the defaults take well under a second). */
const SEQUENCES = Number(Deno.env.get("GATEHOUSE_AGREE_SEQUENCES") ?? 24);
const OPERATIONS = Number(Deno.env.get("GATEHOUSE_AGREE_OPERATIONS") ?? 150);

interface Live {
  id: string;
  scopes: HeldScope[];
}

/** Sends `calls` to Redis in one turn of the event loop (so they go as one batch, in order) and
 * to memory one after another; the replies of both, in order. */
async function inOneTurn<C, R>(
  calls: C[],
  memory: (call: C) => Promise<R>,
  redis: (call: C) => Promise<R>,
): Promise<[R[], R[]]> {
  const fromRedis = Promise.all(calls.map(redis));
  const fromMemory: R[] = [];
  for (const call of calls) fromMemory.push(await memory(call));
  return [fromMemory, await fromRedis];
}

/** How a sequence sends its calls: one at a time; admissions and releases in groups of up to 8
 * made in one turn (one Redis batch each), the clock moving forward between the calls of a
 * group; or the same with the clock also stepping back within a group (by more than a window
 * too). */
type Mode = "single" | "grouped" | "clock back";

/** One sequence: its limits, then its operations against the reference (which takes every call
 * on its own) and the Redis backend. */
async function sequence(
  seed: number,
  memory: LimitsBackend,
  redis: LimitsBackend,
  mode: Mode = "single",
) {
  const grouped = mode !== "single";
  const rand = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const maybe = <T>(p: number, value: () => T): T | undefined => rand() < p ? value() : undefined;
  // Dollars in eighths: sums of them are exact in doubles, whatever the order of addition.
  const dollars = (most: number) => int(0, most * 8) / 8;
  const period: BudgetPeriod = "month";
  const limitsOf = (kind: "key" | "team", id: string) => {
    const budget = maybe(0.5, () => ({ usd: int(1, 4), period }));
    return {
      kind,
      id,
      rpm: maybe(0.6, () => int(1, 6)),
      tpm: maybe(0.6, () => int(200, 2_000)),
      maxParallel: maybe(0.5, () => int(1, 4)),
      budget,
    };
  };
  const key = limitsOf("key", `k${seed}`);
  const team = limitsOf("team", `t${seed}`);
  let now = Date.UTC(2026, 10, 3, 12) + int(0, 1_000);
  const live: Live[] = [];
  const log: string[] = [];
  const same = <T>(a: T, b: T, what: string) =>
    assert.deepEqual(
      b,
      a,
      `seed ${seed}, ${what}; the sequence:\n${
        log.slice(-(Number(Deno.env.get("TAIL") ?? 12))).join("\n")
      }`,
    );
  let next = 0;

  for (let op = 0; op < OPERATIONS; op++) {
    const roll = rand();
    // Within a group the clock moves by a millisecond or two, now and then past short leases,
    // and now and then back (by more than a window too), then forward again past where it was.
    let back = 0;
    const tick = () => {
      if (!grouped || rand() < 0.5) return;
      const roll = rand();
      const step = roll < 0.85
        ? int(1, 2)
        : roll < 0.95 || mode !== "clock back"
        ? int(400, 6_000)
        : back === 0
        ? -int(1, 70_000)
        : back + int(1, 2);
      if (step < 0) back = -step;
      else if (back > 0) back = Math.max(0, back - step);
      now += step;
      log.push(`advance ${step}`);
    };
    // A group ends with the clock past every time it used.
    const caughtUp = () => {
      if (back === 0) return;
      now += back + 1;
      log.push(`advance ${back + 1}`);
      back = 0;
    };
    const size = () => grouped ? int(1, 8) : 1;
    if (roll < 0.42) {
      const calls: AdmitCall[] = [];
      for (let n = size(); n > 0; n--) {
        const scopes = rand() < 0.6 ? [key, team] : [key];
        calls.push({
          requestId: `r${seed}-${next++}`,
          now,
          leaseMs: rand() < 0.2 ? int(500, 5_000) : 30_000,
          tokens: rand() < 0.2 ? null : int(0, 700),
          reservation: dollars(1),
          scopes: scopes.map((s): ScopeLimits => ({
            ...s,
            budget: s.budget && { ...s.budget, start: periodStart(s.budget.period, now) },
          })),
          peek: rand() < 0.1,
        });
        log.push(`admit ${JSON.stringify(calls.at(-1))}`);
        tick();
      }
      caughtUp();
      const [as, bs] = await inOneTurn(calls, (c) => memory.admit(c), (c) => redis.admit(c));
      same(as, bs, "admit");
      for (const [n, call] of calls.entries()) {
        let a = as[n]!;
        if (a.kind === "load") {
          const loaded = dollars(2);
          for (const i of a.scopes) call.scopes[i]!.budget!.loaded = loaded;
          // Again at the clock's time: the later calls of the group may have pruned the windows
          // at theirs (Redis prunes before a "load" reply, memory does not: time going back
          // would show that, not the batch).
          call.now = now;
          log.push(`  loaded ${loaded} for ${call.requestId}`);
          let b;
          [a, b] = await Promise.all([memory.admit(call), redis.admit(call)]);
          same(a, b, "admit after loading");
        }
        if (a.kind === "admitted" && !call.peek) {
          live.push({
            id: call.requestId,
            scopes: call.scopes.map((s) => ({
              kind: s.kind,
              id: s.id,
              tpm: s.tpm !== undefined && call.tokens !== null,
              budget: s.budget ? { period: s.budget.period, start: s.budget.start } : null,
            })),
          });
        }
      }
    } else if (roll < 0.67 && live.length > 0) {
      const calls: ReleaseCall[] = [];
      for (let n = Math.min(size(), live.length); n > 0; n--) {
        const [held] = live.splice(int(0, live.length - 1), 1);
        calls.push({ requestId: held!.id, now, tokens: int(0, 900), cost: dollars(1), ...held! });
        log.push(`release ${JSON.stringify(calls.at(-1))}`);
        tick();
      }
      caughtUp();
      await inOneTurn(calls, (c) => memory.release(c), (c) => redis.release(c));
    } else if (roll < 0.77 && live.length > 0) {
      const held = live[int(0, live.length - 1)]!;
      const scopes = held.scopes.filter((s) => s.budget !== null);
      const call = { requestId: held.id, now, actual: dollars(2), scopes };
      log.push(`flow ${JSON.stringify(call)}`);
      const [a, b] = await Promise.all([memory.flow(call), redis.flow(call)]);
      same(a, b, "flow");
    } else if (roll < 0.79) {
      const scopes = [rand() < 0.5 ? key : team].map(({ kind, id }) => ({ kind, id }));
      log.push(`forget ${JSON.stringify(scopes)}`);
      await Promise.all([memory.forget(scopes), redis.forget(scopes)]);
    } else if (roll < 0.84) {
      const call = {
        now,
        leaseMs: 30_000,
        holds: live.map((h) => ({ requestId: h.id, scopes: h.scopes })),
      };
      log.push(`renew ${live.length}`);
      await Promise.all([memory.renew(call), redis.renew(call)]);
    } else {
      const step = rand() < 0.3 ? int(55_000, 65_000) : int(0, 20_000);
      now += step;
      log.push(`advance ${step}`);
    }
  }
}

redisTest("the Redis scripts and the memory backend answer every call alike", async (made) => {
  for (let seed = 1; seed <= SEQUENCES; seed++) {
    await sequence(seed, new MemoryLimits(), made.backend);
  }
});

redisTest(
  "a batch of calls made in one turn answers each as if it had been sent alone",
  async (made) => {
    for (let seed = 1; seed <= SEQUENCES; seed++) {
      await sequence(seed, new MemoryLimits(), made.backend, "grouped");
    }
  },
);

// With the clock going back the reference is Redis itself, one call at a time: the memory
// backend keeps leases and spend the scripts have already expired or pruned at a later time.
redisTest("a batch answers as the scripts do one call at a time, the clock going back too", async (
  made,
) => {
  const alone = await redisBackend();
  try {
    for (let seed = 1; seed <= SEQUENCES; seed++) {
      await sequence(seed, alone.backend, made.backend, "clock back");
    }
  } finally {
    await alone.close();
  }
});
