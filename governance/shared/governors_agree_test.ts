/**
 * The in-process `Governor` (one gateway, the embedded default) and the `SharedGovernor` over
 * each backend (workers, Redis) admit and refuse alike, with the same headers and messages:
 * random sequences of admissions, releases and clock steps on a key and its team with random
 * policies, sent to both. An operator who moves from one process to many keeps the same limits.
 */
import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import type { Admission, AdmissionRequest, Admitter } from "../../gateway/admission.ts";
import { Governor } from "../governor.ts";
import type { Policy } from "../policy.ts";
import { fakeClock, fakeLedger, keyWith, modelWith, requestOf, spentOf } from "../testing.ts";
import { SharedGovernor } from "./shared_governor.ts";
import { backendTest } from "./test_backends.ts";
import { seededRandom } from "../../core/seeded_random.ts";

const SEQUENCES = Number(Deno.env.get("GATEHOUSE_AGREE_SEQUENCES") ?? 12);
const OPERATIONS = Number(Deno.env.get("GATEHOUSE_AGREE_OPERATIONS") ?? 80);

// Output at $1000 per million tokens, input free: `max_tokens: n` reserves $n / 1000.
const model = modelWith("gpt-test", { input: 0, output: 1_000 });

/** What a client would see of an admission: its headers, or the refusal. */
async function outcome(admitter: Admitter, request: AdmissionRequest) {
  try {
    const admission = await admitter.admit(request);
    return { admission, seen: { headers: admission.headers ?? null } };
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    const { status, message, headers, code } = error;
    return { admission: null, seen: { refused: { status, message, headers, code } } };
  }
}

/** Lets a release reach the backend (Redis takes a turn of the event loop). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2));

async function sequence(seed: number, backend: SharedGovernor["backend"]) {
  const rand = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const maybe = <T>(p: number, value: () => T): T | undefined => rand() < p ? value() : undefined;
  const policy = (): Policy => ({
    rpm: maybe(0.6, () => int(1, 6)),
    tpm: maybe(0.6, () => int(200, 2_000)),
    maxParallel: maybe(0.5, () => int(1, 4)),
    budgetUsd: maybe(0.5, () => int(1, 4)),
    budgetPeriod: "month",
  });
  const team = rand() < 0.6 ? { id: `t${seed}`, policy: policy() } : null;
  const key = keyWith(policy(), team, `k${seed}-${crypto.randomUUID()}`);
  const clock = fakeClock();
  const settled = int(0, 8) / 8;
  const local = new Governor({ store: fakeLedger(() => settled), now: clock.now });
  // Leases outlive the sequence (at most a few hours of its clock, which jumps minutes at a
  // time where a real process's heartbeat would have renewed them; crashed holders have their
  // own tests). A day: the heartbeat's interval, a third of it, must fit a 32-bit timer.
  const shared = new SharedGovernor({
    backend,
    store: fakeLedger(() => settled),
    now: clock.now,
    leaseMs: 86_400_000,
  });
  const live: [Admission, Admission][] = [];
  const log: string[] = [];
  const same = <T>(a: T, b: T, what: string) =>
    assert.deepEqual(b, a, `seed ${seed}, ${what}; the sequence:\n${log.slice(-12).join("\n")}`);
  try {
    for (let op = 0; op < OPERATIONS; op++) {
      const roll = rand();
      if (roll < 0.5) {
        const request = requestOf(key, model, {
          bodyBytes: int(0, 2_400),
          maxTokens: maybe(0.7, () => 125 * int(0, 8)),
          route: rand() < 0.5 ? "/v1/chat/completions" : "/v1/messages",
        });
        log.push(`admit ${JSON.stringify({ ...request, key: undefined, model: undefined })}`);
        const a = await outcome(local, request);
        const b = await outcome(shared, { ...request, requestId: crypto.randomUUID() });
        same(a.seen, b.seen, "admit");
        if (a.admission && b.admission) live.push([a.admission, b.admission]);
      } else if (roll < 0.8 && live.length > 0) {
        const [pair] = live.splice(int(0, live.length - 1), 1);
        const spent = spentOf(
          { inputTokens: int(0, 500), outputTokens: int(0, 400) },
          int(0, 8) / 8,
        );
        log.push(`release ${JSON.stringify(spent)}`);
        pair![0].release(spent);
        pair![1].release(spent);
        await settle();
      } else {
        const step = rand() < 0.3 ? int(55_000, 65_000) : int(0, 20_000);
        clock.advance(step);
        log.push(`advance ${step}`);
      }
    }
    same(local.rates(key), await shared.rates(key), "rates at the end");
    same(await local.status(key), await shared.status(key), "status at the end");
  } finally {
    for (const [a, b] of live) {
      a.release(spentOf({}, 0));
      b.release(spentOf({}, 0));
    }
    await settle();
    shared.close();
  }
}

backendTest("the in-process and the shared governor admit and refuse alike", async (made) => {
  for (let seed = 1; seed <= SEQUENCES; seed++) await sequence(seed, made.backend);
});
