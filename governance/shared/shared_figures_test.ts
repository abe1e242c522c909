import assert from "node:assert/strict";
import { admissionHeaders, rateSnapshot, refusalError } from "./shared_figures.ts";

const parts = [
  { kind: "key" as const, id: "k", policy: { rpm: 10, maxParallel: 4 } },
  { kind: "team" as const, id: "t", policy: { rpm: 5, maxParallel: 2 } },
];
const figures = [
  { requests: { count: 2, resetAt: 61_000 }, tokens: null, inFlight: 1, budget: null },
  { requests: { count: 4, resetAt: 62_000 }, tokens: null, inFlight: 1, budget: null },
];

Deno.test("figures: headers and snapshot take the tighter scope", () => {
  assert.deepEqual(admissionHeaders("/v1/chat/completions", parts, figures, 1_000), {
    "x-ratelimit-limit-requests": "5",
    "x-ratelimit-remaining-requests": "1",
    "x-ratelimit-reset-requests": "1m1s",
  });
  assert.deepEqual(rateSnapshot(parts, figures).parallel, { scope: "team", limit: 2, inFlight: 1 });
});

Deno.test("figures: a refusal names its scope with the headers before taking", () => {
  const expected = { inputTokens: 1, outputTokens: 1, reservationUsd: 0, whole: false };
  const error = refusalError(
    "/v1/messages",
    parts,
    figures,
    { check: "rpm", scope: 1, waitMs: 1_500 },
    expected,
    1_000,
  );
  assert.match(error.message, /team "t" \(shared by its keys\): 5 requests per minute/);
  assert.equal(error.headers["retry-after"], "2");
  assert.equal(error.headers["anthropic-ratelimit-requests-remaining"], "1");
});
