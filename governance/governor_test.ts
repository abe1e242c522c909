import assert from "node:assert/strict";
import { GatewayError } from "../core/errors.ts";
import type { Admission, AdmissionRequest } from "../gateway/admission.ts";
import { COUNT_TOKENS_ROUTE, Governor } from "./governor.ts";
import { fakeClock, fakeLedger, keyWith, modelWith, requestOf, spentOf } from "./testing.ts";

/** Admits synchronously (no budget in these tests: admit never returns a promise). */
function admitSync(governor: Governor, request: AdmissionRequest): Admission {
  const admission = governor.admit(request);
  assert.ok(!(admission instanceof Promise), "admission without a budget is synchronous");
  return admission;
}

/** The refusal `admit` throws. */
function refusalOf(governor: Governor, request: AdmissionRequest): GatewayError {
  try {
    governor.admit(request);
  } catch (error) {
    assert.ok(error instanceof GatewayError);
    return error;
  }
  assert.fail("admitted");
}

const model = modelWith();

Deno.test("governor: a key without limits gets the shared no-op admission", () => {
  const governor = new Governor({ store: fakeLedger() });
  const key = keyWith({ models: ["gpt-*"] });
  const a = admitSync(governor, requestOf(key, model));
  const b = admitSync(governor, requestOf(keyWith({}), model));
  assert.equal(a, b);
  assert.equal(a.headers, undefined);
  assert.equal(a.watch, undefined);
});

Deno.test("governor: models lists of key and team; the alias or requested name also matches", () => {
  const governor = new Governor({ store: fakeLedger() });
  const key = keyWith({ models: ["claude-*", "gpt-4o"] });
  const error = refusalOf(governor, requestOf(key, modelWith("gpt-5")));
  assert.equal(error.status, 403);
  assert.equal(error.kind, "permission");
  assert.equal(error.code, "model_not_allowed");
  assert.match(error.message, /Model "gpt-5" is not allowed for this key/);
  assert.match(error.message, /allows only claude-\*, gpt-4o/);
  assert.match(error.message, /ask an admin to add "gpt-5"/);
  admitSync(governor, requestOf(key, modelWith("claude-sonnet-9")));
  const aliased = { ...modelWith("gpt-5-mini"), requested: "fast" };
  admitSync(governor, requestOf(keyWith({ models: ["fast"] }), aliased));
  const teamed = keyWith({}, { id: "research", policy: { models: ["claude-*"] } });
  const teamError = refusalOf(governor, requestOf(teamed, aliased));
  assert.match(
    teamError.message,
    /"fast" \(catalog id "gpt-5-mini"\) is not allowed for team "research"/,
  );
  const counting = requestOf(key, modelWith("gpt-5"), { route: COUNT_TOKENS_ROUTE });
  assert.equal(refusalOf(governor, counting).code, "model_not_allowed");
});

Deno.test("governor: rpm is an exact sliding window (rpm=3: refused at 59.999 s, admitted at 60 s)", () => {
  const clock = fakeClock();
  const t0 = clock.now();
  const governor = new Governor({ store: fakeLedger(), now: clock.now });
  const key = keyWith({ rpm: 3 });
  for (let i = 0; i < 3; i++) admitSync(governor, requestOf(key, model)).release(spentOf({}, 0));
  clock.set(t0 + 59_999);
  const error = refusalOf(governor, requestOf(key, model));
  assert.equal(error.status, 429);
  assert.equal(error.kind, "rate_limit");
  assert.equal(error.code, "rate_limit_exceeded");
  assert.equal(error.headers["retry-after"], "1");
  assert.equal(error.headers["x-ratelimit-remaining-requests"], "0");
  assert.match(error.message, /this key: 3 requests per minute \(rpm\).*Retry in 1 s/);
  clock.set(t0 + 60_000);
  admitSync(governor, requestOf(key, model));
});

Deno.test("governor: retry-after is when the window will admit, in whole seconds rounded up", () => {
  const clock = fakeClock();
  const t0 = clock.now();
  const governor = new Governor({ store: fakeLedger(), now: clock.now });
  const key = keyWith({ rpm: 2 });
  admitSync(governor, requestOf(key, model));
  clock.set(t0 + 10_000);
  admitSync(governor, requestOf(key, model));
  clock.set(t0 + 20_500);
  assert.equal(refusalOf(governor, requestOf(key, model)).headers["retry-after"], "40"); // 39.5 s
  clock.set(t0 + 59_000);
  assert.equal(refusalOf(governor, requestOf(key, model)).headers["retry-after"], "1");
});

Deno.test("governor: tpm counts the input estimate, then the real input + output at release", () => {
  const clock = fakeClock();
  const t0 = clock.now();
  const governor = new Governor({ store: fakeLedger(), now: clock.now });
  const key = keyWith({ tpm: 3_000 });
  const first = admitSync(governor, requestOf(key, model, { bodyBytes: 4_000 }));
  assert.equal(first.inputEstimate, 1_000);
  assert.equal(first.headers?.["x-ratelimit-remaining-tokens"], "2000");
  first.release(spentOf({ inputTokens: 900, outputTokens: 1_600 }, 0)); // 2500 real
  clock.set(t0 + 5_000);
  const refused = refusalOf(governor, requestOf(key, model, { bodyBytes: 4_000 }));
  assert.match(refused.message, /3000 tokens per minute \(tpm\); 2500 were counted/);
  assert.equal(refused.headers["retry-after"], "55");
  assert.equal(refused.headers["x-ratelimit-remaining-tokens"], "500");
  admitSync(governor, requestOf(key, model, { bodyBytes: 2_000 })); // 500 fits exactly
  const never = refusalOf(governor, requestOf(key, model, { bodyBytes: 12_004 }));
  assert.match(never.message, /needs about 3001 input tokens.*it can never fit/);
  assert.equal(never.headers["retry-after"], undefined);
  clock.set(t0 + 60_000);
  admitSync(governor, requestOf(key, model, { bodyBytes: 4_000 }));
});

Deno.test("governor: max_parallel counts requests in flight until release (retry-after 1)", () => {
  const governor = new Governor({ store: fakeLedger() });
  const key = keyWith({ maxParallel: 2 });
  const a = admitSync(governor, requestOf(key, model));
  admitSync(governor, requestOf(key, model));
  const error = refusalOf(governor, requestOf(key, model));
  assert.equal(error.headers["retry-after"], "1");
  assert.match(error.message, /max_parallel is 2, and 2 are running/);
  assert.equal(error.headers["x-ratelimit-limit-requests"], undefined, "no rpm/tpm: no headers");
  a.release(spentOf({}, 0));
  a.release(spentOf({}, 0)); // a second release is ignored
  admitSync(governor, requestOf(key, model));
  assert.equal(refusalOf(governor, requestOf(key, model)).kind, "rate_limit");
});

Deno.test("governor: headers on OpenAI and Messages routes, admitted and refused", () => {
  const clock = fakeClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  const governor = new Governor({ store: fakeLedger(), now: clock.now });
  const key = keyWith({ rpm: 2, tpm: 10_000 });
  const chat = admitSync(governor, requestOf(key, model, { bodyBytes: 4_000 }));
  assert.deepEqual(chat.headers, {
    "x-ratelimit-limit-requests": "2",
    "x-ratelimit-remaining-requests": "1",
    "x-ratelimit-reset-requests": "1m0s",
    "x-ratelimit-limit-tokens": "10000",
    "x-ratelimit-remaining-tokens": "9000",
    "x-ratelimit-reset-tokens": "1m0s",
  });
  clock.advance(800);
  const messages = admitSync(governor, requestOf(key, model, { route: "/v1/messages" }));
  assert.deepEqual(messages.headers, {
    "anthropic-ratelimit-requests-limit": "2",
    "anthropic-ratelimit-requests-remaining": "0",
    "anthropic-ratelimit-requests-reset": "2026-01-15T12:01:01Z",
    "anthropic-ratelimit-tokens-limit": "10000",
    "anthropic-ratelimit-tokens-remaining": "8900",
    "anthropic-ratelimit-tokens-reset": "2026-01-15T12:01:01Z",
  });
  clock.advance(200);
  const refused = refusalOf(governor, requestOf(key, model, { route: "/v1/messages" }));
  assert.equal(refused.headers["anthropic-ratelimit-requests-remaining"], "0");
  assert.equal(refused.headers["retry-after"], "59");
  const openai = refusalOf(governor, requestOf(key, model));
  assert.equal(openai.headers["x-ratelimit-reset-requests"], "59.8s");
});

Deno.test("governor: a team's limits are shared by its keys; headers report the tighter", () => {
  const governor = new Governor({ store: fakeLedger() });
  const team = { id: "research", policy: { rpm: 3 } };
  const alice = keyWith({ rpm: 10 }, team, "key_alice");
  const bob = keyWith({}, team, "key_bob");
  admitSync(governor, requestOf(alice, model));
  const second = admitSync(governor, requestOf(alice, model));
  assert.equal(second.headers?.["x-ratelimit-remaining-requests"], "1", "team: 1 left, key: 8");
  admitSync(governor, requestOf(bob, model));
  const error = refusalOf(governor, requestOf(bob, model));
  assert.match(error.message, /team "research" \(shared by its keys\): 3 requests per minute/);
  assert.equal(
    refusalOf(governor, requestOf(alice, model)).headers["x-ratelimit-limit-requests"],
    "3",
  );
  assert.equal(governor.rates(alice).requests?.scope, "team");
});

Deno.test("governor: an rpm edit resizes the window, keeping the newest admissions", () => {
  const clock = fakeClock();
  const governor = new Governor({ store: fakeLedger(), now: clock.now });
  for (let i = 0; i < 3; i++) {
    admitSync(governor, requestOf(keyWith({ rpm: 5 }), model));
    clock.advance(1_000);
  }
  // Lowered to 2: the newest two of the three are kept, and the window is full.
  const lowered = refusalOf(governor, requestOf(keyWith({ rpm: 2 }), model));
  assert.equal(lowered.headers["retry-after"], "58"); // the older kept one (t=1 s) leaves at 61 s
  // Raised to 4: the two kept count, so two more fit.
  admitSync(governor, requestOf(keyWith({ rpm: 4 }), model));
  assert.equal(governor.rates(keyWith({ rpm: 4 })).requests?.remaining, 1);
});

Deno.test("governor: count_tokens is exempt from rate limits and budgets", () => {
  const governor = new Governor({ store: fakeLedger() });
  const key = keyWith({ rpm: 1, maxParallel: 1, budgetUsd: 0 });
  const counting = requestOf(key, model, { route: COUNT_TOKENS_ROUTE });
  for (let i = 0; i < 5; i++) assert.equal(admitSync(governor, counting).headers, undefined);
});
