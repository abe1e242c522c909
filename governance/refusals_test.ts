import assert from "node:assert/strict";
import {
  budgetExceeded,
  budgetReached,
  humanDuration,
  modelNotAllowed,
  parallelExceeded,
  RETRY_HORIZON_SECONDS,
  retryHeaders,
  retrySeconds,
  rpmExceeded,
  tpmExceeded,
  usd,
} from "./refusals.ts";

const key = { kind: "key" as const, id: "key_a" };
const team = { kind: "team" as const, id: "research" };
const now = Date.UTC(2026, 0, 15, 12);

Deno.test("refusals: retry seconds are whole, rounded up, at least 1", () => {
  assert.equal(retrySeconds(0), 1);
  assert.equal(retrySeconds(1), 1);
  assert.equal(retrySeconds(1_000), 1);
  assert.equal(retrySeconds(1_001), 2);
  assert.equal(retrySeconds(39_500), 40);
});

Deno.test("refusals: dollars and durations read well", () => {
  assert.equal(usd(5), "$5.00");
  assert.equal(usd(0.0123), "$0.0123");
  assert.equal(usd(4.096), "$4.096");
  assert.equal(usd(0.000001), "$0.000001");
  assert.equal(humanDuration(45_000), "45 s");
  assert.equal(humanDuration(12 * 60_000), "12 min");
  assert.equal(humanDuration(3 * 3_600_000 + 12 * 60_000), "3 h 12 min");
  assert.equal(humanDuration(5 * 86_400_000 + 3 * 3_600_000), "5 d 3 h");
});

Deno.test("refusals: status, kind, code and headers of each", () => {
  const limits = { "x-ratelimit-remaining-requests": "0" };
  const model = modelNotAllowed(team, "fast", "gpt-5-mini", []);
  assert.deepEqual([model.status, model.kind, model.code, model.param], [
    403,
    "permission",
    "model_not_allowed",
    "model",
  ]);
  assert.match(
    model.message,
    /team "research" of this key: team "research"'s policy allows no model/,
  );
  const rpm = rpmExceeded(key, 3, 12_300, limits);
  assert.deepEqual([rpm.status, rpm.kind, rpm.code], [429, "rate_limit", "rate_limit_exceeded"]);
  assert.deepEqual(rpm.headers, { ...limits, "retry-after": "13", "x-should-retry": "true" });
  const tpm = tpmExceeded(team, 1_000, 900, 200, 4_000, {});
  assert.match(tpm.message, /team "research" \(shared by its keys\): 1000 tokens per minute/);
  assert.equal(tpm.headers["retry-after"], "4");
  assert.equal(tpmExceeded(key, 1_000, 0, 2_000, Infinity, {}).headers["retry-after"], undefined);
  assert.equal(parallelExceeded(key, 4, {}).headers["retry-after"], "1");
});

Deno.test("refusals: x-should-retry is true only when a wait of at most a minute cures it", () => {
  assert.equal(RETRY_HORIZON_SECONDS, 60);
  assert.deepEqual(retryHeaders({ a: "1" }, 60), {
    a: "1",
    "retry-after": "60",
    "x-should-retry": "true",
  });
  assert.deepEqual(retryHeaders({}, 61), { "retry-after": "61", "x-should-retry": "false" });
  assert.deepEqual(retryHeaders({}, null), { "x-should-retry": "false" });
  // The rate windows are 60 s long: whatever they ask to wait is worth it.
  assert.equal(rpmExceeded(key, 1, 60_000, {}).headers["x-should-retry"], "true");
  assert.equal(tpmExceeded(key, 10, 10, 5, 59_001, {}).headers["x-should-retry"], "true");
  assert.equal(parallelExceeded(team, 1, {}).headers["x-should-retry"], "true");
  // Never fits: no wait helps, so no retry-after, and clients are told not to resend.
  const never = tpmExceeded(key, 1_000, 0, 2_000, Infinity, {});
  assert.deepEqual(never.headers, { "x-should-retry": "false" });
});

Deno.test("refusals: a budget refusal names budget, spend, holds and the reset", () => {
  const figures = {
    budgetUsd: 10,
    period: "day" as const,
    settledUsd: 9.5,
    heldUsd: 0,
    holds: 0,
    resetsAt: Date.UTC(2026, 0, 16),
  };
  const spent = budgetExceeded(key, figures, 1, now, {});
  assert.deepEqual([spent.status, spent.kind, spent.code], [429, "quota", "insufficient_quota"]);
  assert.equal(spent.headers["retry-after"], String(12 * 3600));
  assert.equal(spent.headers["x-should-retry"], "false", "half a day is not worth a retry");
  const soon = budgetExceeded(key, figures, 1, figures.resetsAt - 30_000, {});
  assert.deepEqual([soon.headers["retry-after"], soon.headers["x-should-retry"]], ["30", "true"]);
  const total = budgetExceeded(key, { ...figures, period: "total", resetsAt: null }, 1, now, {});
  assert.deepEqual(total.headers, { "x-should-retry": "false" });
  assert.match(
    spent.message,
    /\$10\.00 per day \(UTC\); \$9\.50 spent.*resets at 2026-01-16T00:00:00Z \(in 12 h 0 min\)/,
  );
  const held = budgetExceeded(
    key,
    { ...figures, settledUsd: 5, heldUsd: 4.5, holds: 2 },
    1,
    now,
    {},
  );
  assert.equal(held.headers["retry-after"], "1");
  assert.equal(held.headers["x-should-retry"], "true");
  assert.match(held.message, /\$4\.50 held by 2 requests in flight.*retry when they finish/);
  const reached = budgetReached(key, { ...figures, period: "total", resetsAt: null }, 10, now);
  assert.match(reached.message, /\$10\.00 spent of \$10\.00 in total.*never resets/);
  assert.equal(reached.code, "insufficient_quota");
});

Deno.test("refusals: counts of one read in the singular", () => {
  const key = { kind: "key" as const, id: "k" };
  assert.match(rpmExceeded(key, 1, 5_000, {}).message, /1 request per minute \(rpm\), and 1 was/);
  assert.match(rpmExceeded(key, 2, 5_000, {}).message, /2 requests per minute \(rpm\), and 2 were/);
  assert.match(parallelExceeded(key, 1, {}).message, /max_parallel is 1, and 1 is running/);
  assert.match(tpmExceeded(key, 1, 1, 1, 5_000, {}).message, /1 token per minute \(tpm\); 1 was/);
});
