import assert from "node:assert/strict";
import { modelAllowed } from "../governance/policy.ts";
import type { LoadResult } from "./load.ts";
import {
  BENCH_LIMITS,
  benchPolicies,
  EXPIRY_AHEAD_MS,
  formatPolicyCosts,
  policyCosts,
  rateLimitHeaderNames,
  rateLimitProblems,
  rpmWindowBytes,
  usageProblems,
} from "./policies.ts";
import type { Measurement } from "./report.ts";
import { SCENARIOS, type Target } from "./scenarios.ts";

Deno.test("benchPolicies sets every policy field on key and team, and allows every bench model", () => {
  const now = Date.UTC(2026, 0, 15);
  const { key, team } = benchPolicies(now);
  const fields = ["models", "rpm", "tpm", "maxParallel", "budgetUsd", "budgetPeriod", "expiresAt"];
  for (const policy of [key, team]) {
    assert.deepEqual(Object.keys(policy).sort(), [...fields].sort());
    assert.equal(policy.budgetPeriod, "month");
    assert.equal(policy.expiresAt, now + EXPIRY_AHEAD_MS);
    assert.equal(policy.rpm, BENCH_LIMITS.rpm);
    for (const scenario of SCENARIOS) assert.ok(modelAllowed(policy.models, scenario.model));
  }
  assert.ok(team.models!.some((pattern) => !modelAllowed([pattern], "bench-chat")));
});

Deno.test("rpmWindowBytes: one Float64 per admission of the last minute, in a doubled buffer", () => {
  assert.equal(rpmWindowBytes(0), 16 * 8);
  assert.equal(rpmWindowBytes(1000), 65_536 * 8); // 60 000 held
  assert.equal(rpmWindowBytes(5000), 524_288 * 8); // 300 000 held: 4 MiB
  assert.equal(rpmWindowBytes(5000, 100), 100 * 8); // capped at the limit
  assert.equal(rpmWindowBytes(1, 10), 10 * 8);
});

Deno.test("rateLimitHeaderNames: OpenAI form, and Anthropic form on /v1/messages", () => {
  assert.deepEqual(rateLimitHeaderNames("/v1/chat/completions").slice(0, 3), [
    "x-ratelimit-limit-requests",
    "x-ratelimit-remaining-requests",
    "x-ratelimit-reset-requests",
  ]);
  assert.equal(rateLimitHeaderNames("/v1/responses")[3], "x-ratelimit-limit-tokens");
  assert.equal(rateLimitHeaderNames("/v1/messages")[3], "anthropic-ratelimit-tokens-limit");
});

Deno.test("rateLimitProblems: the policied key must be counted, the other must not", () => {
  const path = "/v1/chat/completions";
  const full = new Headers();
  for (const name of rateLimitHeaderNames(path)) full.set(name, "1");
  full.set("x-ratelimit-limit-requests", String(BENCH_LIMITS.rpm));
  full.set("x-ratelimit-limit-tokens", String(BENCH_LIMITS.tpm));
  assert.deepEqual(rateLimitProblems(full, path, "policied"), []);
  assert.deepEqual(rateLimitProblems(new Headers(), path, "gatehouse"), []);
  assert.equal(rateLimitProblems(new Headers(), path, "policied").length, 6);
  assert.match(rateLimitProblems(full, path, "gatehouse")[0]!, /unpolicied key got x-ratelimit/);
  full.set("x-ratelimit-limit-requests", "60");
  assert.deepEqual(rateLimitProblems(full, path, "policied"), [
    `x-ratelimit-limit-requests is 60, not ${BENCH_LIMITS.rpm}`,
  ]);
});

const result = (p50: number, throughput: number): LoadResult => ({
  requests: 1,
  errors: 0,
  firstError: null,
  elapsedMs: 1,
  throughput,
  p50,
  p99: p50,
  mean: p50,
});
const m = (target: Target, concurrency: number, p50: number, rps: number): Measurement => ({
  scenario: "chat-json",
  target,
  concurrency,
  result: result(p50, rps),
});

Deno.test("policyCosts: added p50 over direct at c=1, throughput and ratio at c=32", () => {
  const all = [
    m("direct", 1, 1.0, 900),
    m("gatehouse", 1, 1.3, 700),
    m("policied", 1, 1.45, 650),
    m("direct", 32, 4, 8000),
    m("gatehouse", 32, 8, 4000),
    m("policied", 32, 9, 3600),
  ];
  const [cost] = policyCosts(["chat-json", "chat-stream"], all, 2);
  assert.equal(cost!.round, 2);
  assert.ok(Math.abs(cost!.addedP50None - 0.3) < 1e-9);
  assert.ok(Math.abs(cost!.addedP50All - 0.45) < 1e-9);
  assert.equal(cost!.rpsNone, 4000);
  assert.equal(cost!.rpsAll, 3600);
  assert.equal(cost!.ratio, 0.9);
  assert.equal(policyCosts(["chat-json"], all).length, 1);
  assert.equal(policyCosts(["chat-json"], all.filter((x) => x.target !== "direct")).length, 0);
  const text = formatPolicyCosts(policyCosts(["chat-json"], all), (id) => id);
  assert.match(text, /pooled {2}chat-json +\+0\.300 +\+0\.450 +\+0\.150 +4000 +3600 +90\.0%/);
});

Deno.test("usageProblems: the policied key settled spend and holds nothing; the other has no limit", () => {
  const budget = { spent_usd: 1.5, in_flight_usd: 0 };
  const good = {
    budget,
    team_budget: budget,
    rate_limits: {
      requests: { limit: BENCH_LIMITS.rpm, remaining: BENCH_LIMITS.rpm - 7 },
      tokens: { limit: BENCH_LIMITS.tpm },
      parallel: { in_flight: 0 },
    },
  };
  const ok = usageProblems(good, "policied");
  assert.deepEqual(ok.problems, []);
  assert.match(ok.summary, /7 requests in the rpm window/);
  const leaking = { ...good, team_budget: { spent_usd: 0, in_flight_usd: 0.01 } };
  assert.deepEqual(usageProblems(leaking, "policied").problems, [
    "team_budget.spent_usd is 0",
    "team_budget.in_flight_usd is 0.01",
  ]);
  const none = { budget: null, team_budget: null, rate_limits: { requests: null, tokens: null } };
  assert.deepEqual(usageProblems(none, "gatehouse").problems, []);
  assert.equal(usageProblems(none, "policied").problems.length, 5);
  assert.deepEqual(usageProblems(good, "gatehouse").problems, [
    "the unpolicied key has budget, team_budget, rate_limits.requests, rate_limits.tokens",
  ]);
});
