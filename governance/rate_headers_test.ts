import assert from "node:assert/strict";
import { goDuration, isMessagesRoute, rateHeaders, rfc3339, tighter } from "./rate_headers.ts";

Deno.test("goDuration: OpenAI's reset form", () => {
  assert.equal(goDuration(0), "0s");
  assert.equal(goDuration(-5), "0s");
  assert.equal(goDuration(250), "250ms");
  assert.equal(goDuration(1_000), "1s");
  assert.equal(goDuration(59_200), "59.2s");
  assert.equal(goDuration(60_000), "1m0s");
  assert.equal(goDuration(360_000), "6m0s");
  assert.equal(goDuration(61_500), "1m1.5s");
  assert.equal(goDuration(3_600_000), "1h0m0s");
  assert.equal(goDuration(12.3), "13ms");
});

Deno.test("rfc3339: whole seconds, rounded up, Z", () => {
  assert.equal(rfc3339(Date.UTC(2026, 0, 1, 0, 1, 0)), "2026-01-01T00:01:00Z");
  assert.equal(rfc3339(Date.UTC(2026, 0, 1, 0, 1, 0) + 1), "2026-01-01T00:01:01Z");
});

Deno.test("rfc3339: the remembered last second never answers for another one", () => {
  const base = Date.UTC(2026, 5, 30, 23, 59, 59);
  const cases: [number, string][] = [
    [base, "2026-06-30T23:59:59Z"],
    [base + 999, "2026-07-01T00:00:00Z"],
    [base + 999, "2026-07-01T00:00:00Z"],
    [base + 1000, "2026-07-01T00:00:00Z"],
    [base, "2026-06-30T23:59:59Z"],
    [base + 1001, "2026-07-01T00:00:01Z"],
  ];
  for (const [ms, text] of cases) assert.equal(rfc3339(ms), text);
  assert.throws(() => rfc3339(Number.NaN), RangeError);
});

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const requests = { scope: "key" as const, limit: 60, remaining: 59, resetAt: now + 60_000 };
const tokens = {
  scope: "team" as const,
  limit: 150_000,
  remaining: 149_984,
  resetAt: now + 59_200,
};

Deno.test("rateHeaders: OpenAI routes get x-ratelimit-* with durations", () => {
  assert.deepEqual(rateHeaders("/v1/chat/completions", now, requests, tokens), {
    "x-ratelimit-limit-requests": "60",
    "x-ratelimit-remaining-requests": "59",
    "x-ratelimit-reset-requests": "1m0s",
    "x-ratelimit-limit-tokens": "150000",
    "x-ratelimit-remaining-tokens": "149984",
    "x-ratelimit-reset-tokens": "59.2s",
  });
  assert.deepEqual(rateHeaders("/v1/responses", now, requests, null), {
    "x-ratelimit-limit-requests": "60",
    "x-ratelimit-remaining-requests": "59",
    "x-ratelimit-reset-requests": "1m0s",
  });
  assert.equal(rateHeaders("/v1/responses", now, null, null), undefined);
});

Deno.test("rateHeaders: Messages routes get anthropic-ratelimit-* with RFC 3339 times", () => {
  assert.ok(isMessagesRoute("/v1/messages"));
  assert.ok(!isMessagesRoute("/v1/chat/completions"));
  assert.deepEqual(rateHeaders("/v1/messages", now, requests, tokens), {
    "anthropic-ratelimit-requests-limit": "60",
    "anthropic-ratelimit-requests-remaining": "59",
    "anthropic-ratelimit-requests-reset": "2026-01-01T12:01:00Z",
    "anthropic-ratelimit-tokens-limit": "150000",
    "anthropic-ratelimit-tokens-remaining": "149984",
    "anthropic-ratelimit-tokens-reset": "2026-01-01T12:01:00Z",
  });
});

Deno.test("tighter: the lower remaining; on a tie the later reset", () => {
  const a = { scope: "key" as const, limit: 10, remaining: 3, resetAt: 5 };
  const b = { scope: "team" as const, limit: 100, remaining: 2, resetAt: 1 };
  assert.equal(tighter(a, b), b);
  assert.equal(tighter(a, null), a);
  assert.equal(tighter(null, b), b);
  assert.equal(tighter({ ...a, remaining: 2 }, b)?.scope, "key", "tie: the key resets later");
});
