/**
 * A ledger for the dashboard's tests and its load measurement (`bench/dashboard/`): keys in
 * teams, and `rows` requests spread over a time span before `now` with several models, a few
 * errors, latencies and times to first byte, from a fixed pseudo-random sequence (the same
 * rows every run).
 * @module
 */
import type { Outcome, Store, UsageRecord } from "../../store/store.ts";

/** What to seed. */
export interface SeedOptions {
  rows: number;
  /** The newest row is just before this (unix ms). */
  now: number;
  /** How far back the rows go (ms). */
  spanMs: number;
  models?: string[];
}

/** What was seeded: the keys (with their secrets) and the sums of the rows. */
export interface Seeded {
  admin: { id: string; key: string };
  keys: Array<{ id: string; name: string; team: string | null }>;
  rows: UsageRecord[];
}

const MODELS = ["gpt-5.5", "claude-sonnet-5", "gpt-5-mini", "claude-haiku-5", "gemini-3-pro"];
const ERRORS: Outcome[] = ["upstream_error", "timeout", "rejected"];

/** A small linear congruential generator: numbers in [0, 1), the same sequence per seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Creates an admin key, two teams with keys (one named with markup, to prove escaping) and a
 * key without a team, then writes the rows. */
export async function seedLedger(store: Store, options: SeedOptions): Promise<Seeded> {
  const admin = await store.createKey({ name: "dashboard admin", admin: true });
  await store.createTeam("research", { budgetUsd: 500, budgetPeriod: "month" });
  await store.createTeam("support", { rpm: 600 });
  const made = [
    await store.createKey({ name: "alice", team: "research", policy: { budgetUsd: 50 } }),
    await store.createKey({ name: '<img src=x onerror="alert(1)">', team: "support" }),
    await store.createKey({ name: "ci", policy: { rpm: 60 } }),
  ];
  const keys = made.map(({ record }) => ({
    id: record.id,
    name: record.name,
    team: record.team,
  }));
  const models = options.models ?? MODELS;
  const next = random(18);
  const rows: UsageRecord[] = [];
  for (let i = 0; i < options.rows; i++) {
    const model = models[Math.floor(next() * models.length)]!;
    const key = keys[Math.floor(next() * keys.length)]!;
    const failed = next() < 0.03;
    const outcome = failed ? ERRORS[Math.floor(next() * ERRORS.length)]! : "ok";
    const inputTokens = 200 + Math.floor(next() * 4000);
    const outputTokens = failed ? 0 : 50 + Math.floor(next() * 1500);
    const latencyMs = 150 + Math.floor(next() * next() * 8000);
    const stream = next() < 0.6;
    rows.push({
      requestId: `req_seed_${i}`,
      keyId: key.id,
      model,
      servedModel: outcome === "rejected" ? "" : model,
      upstream: "mock",
      upstreamId: null,
      route: "/v1/chat/completions",
      status: failed ? (outcome === "timeout" ? 504 : 502) : 200,
      outcome,
      attempts: outcome === "rejected" ? 0 : 1,
      inputTokens,
      outputTokens,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      images: 0,
      cost: Math.round((inputTokens * 1.25 + outputTokens * 10) * 1e-6 * 1e9) / 1e9,
      latencyMs,
      firstByteMs: stream && !failed ? Math.floor(latencyMs * (0.05 + 0.2 * next())) : null,
      stream,
      time: Math.floor(options.now - 1 - next() * options.spanMs),
    });
  }
  rows.sort((a, b) => a.time - b.time);
  for (let i = 0; i < rows.length; i++) {
    await store.recordUsage(rows[i]!);
    // A report writes the queued rows: the store's write queue (bounded on Postgres) stays short.
    if (i % 5_000 === 4_999) await store.usageReport({ start: 0, end: 1 });
  }
  await store.usageReport({ start: 0, end: 1 });
  return { admin: { id: admin.record.id, key: admin.key }, keys, rows };
}
