import assert from "node:assert/strict";
import type { Catalog, ResolvedDeployment, ResolvedModel } from "../catalog/catalog.ts";
import { MOCK_PROVIDER } from "../catalog/resolve_provider.ts";
import { upstreamError } from "../protocols/upstream_error.ts";
import { AttemptFailed } from "./attempt_failure.ts";
import { AttemptPlan, boundTo, type PlannedAttempt } from "./attempt_plan.ts";
import { DeploymentHealth } from "./health.ts";

/** A deployment of `model` on `provider`. */
function deployment(model: string, provider: string, weight = 1): ResolvedDeployment {
  const upstreamId = `${model}-upstream`;
  return {
    id: `${model}@${provider}`,
    provider: { ...MOCK_PROVIDER, name: provider },
    upstreamId,
    weight,
  };
}

/** A catalog model served by `providers` (name, or [name, weight]). */
function model(
  id: string,
  providers: Array<string | [string, number]>,
  extra: Partial<ResolvedModel> = {},
): ResolvedModel {
  const deployments = providers.map((p) =>
    typeof p === "string" ? deployment(id, p) : deployment(id, p[0], p[1])
  );
  const first = deployments[0] ?? deployment(id, "none");
  return {
    requested: id,
    id,
    upstreamId: first.upstreamId,
    provider: first.provider,
    deployments,
    deployment: first,
    fallbacks: [],
    fallbackOnContextOverflow: false,
    endpointTypes: ["openai"],
    openaiWire: "chat",
    pricing: { input: 1, output: 10 },
    entry: null,
    pattern: null,
    ...extra,
  };
}

/** A catalog that knows `models` (the plan only calls `resolve`). */
function catalogOf(...models: ResolvedModel[]): Catalog {
  const byId = new Map(models.map((m) => [m.id, m]));
  const fake = { resolve: (id: string) => byId.get(id) ?? null };
  return fake as unknown as Catalog;
}

/** A retryable failure with `status` (and the provider's retry-after). */
function failure(status = 500, retryAfterMs: number | null = null): AttemptFailed {
  const error = upstreamError({ provider: "p", status, message: "no", headers: new Headers() });
  return new AttemptFailed("retryable_status", status, error, retryAfterMs);
}

/** A context overflow answer. */
function overflow(): AttemptFailed {
  const message = "prompt is too long";
  const error = upstreamError({ provider: "p", status: 400, message, headers: new Headers() });
  return new AttemptFailed("context_overflow", 400, error);
}

interface Setup {
  models?: ResolvedModel[];
  retries?: number;
  random?: () => number;
  serves?: (model: ResolvedModel) => boolean;
}

const START = 1_000_000;

/** A plan for `requested` over a real breaker on a fixed clock. */
function planFor(requested: ResolvedModel, setup: Setup = {}) {
  const clock = { t: START };
  const health = new DeploymentHealth({ cooldownMs: 30_000, failures: 3, now: () => clock.t });
  const plan = new AttemptPlan(requested, {
    catalog: catalogOf(requested, ...(setup.models ?? [])),
    health,
    retries: setup.retries ?? 2,
    serves: setup.serves ?? (() => true),
    random: setup.random ?? (() => 0),
  });
  return { plan, health, clock };
}

/** The planned attempt, asserted present. */
function must(planned: PlannedAttempt | null): PlannedAttempt {
  assert.notEqual(planned, null, "an attempt was planned");
  return planned!;
}

/** Fails every attempt with `fail` and returns the deployments tried, in order. */
function runAll(plan: AttemptPlan, fail: () => AttemptFailed = () => failure()): string[] {
  const tried: string[] = [];
  let next = plan.next(null, null);
  while (next !== null) {
    tried.push(next.model.deployment.id);
    next = plan.next(fail(), next.model.deployment);
  }
  return tried;
}

/** Marks `id` cooling for `ms` (a 429's retry-after). */
function cool(health: DeploymentHealth, id: string, ms: number): void {
  const ticket = health.begin(id);
  ticket.failed("429", ms);
  ticket.done();
}

/** The attempt planned after the first failed with `fail` (`before` runs between the two). */
function afterFirst(plan: AttemptPlan, fail: AttemptFailed, before = () => {}) {
  const first = must(plan.next(null, null));
  before();
  return plan.next(fail, first.model.deployment);
}

/** `gpt-5` on `a` alone, with `claude` on `anthropic` as its fallback. */
function withFallback(setup: Setup = {}) {
  const m = model("gpt-5", ["a"], { fallbacks: ["claude"] });
  return planFor(m, { models: [model("claude", ["anthropic"])], ...setup });
}

Deno.test("boundTo: the copy carries the deployment's provider and upstream id", () => {
  const m = model("gpt-5", ["a", "b"]);
  const bound = boundTo(m, m.deployments[1]!);
  assert.equal(bound.deployment.id, "gpt-5@b");
  assert.equal(bound.provider.name, "b");
  assert.equal(bound.upstreamId, "gpt-5-upstream");
  assert.equal(m.deployment.id, "gpt-5@a", "the original is unchanged");
});

/** The first attempt's deployment for a draw of `r`, with `busy` requests in flight. */
function firstPick(m: ResolvedModel, r: number, busy: string[] = []): PlannedAttempt {
  const { plan, health } = planFor(m, { random: () => r });
  for (const id of busy) health.begin(id);
  return must(plan.next(null, null));
}

Deno.test("AttemptPlan: the first attempt picks by weight at random, without waiting", () => {
  const m = model("gpt-5", [["a", 3], ["b", 1]]);
  assert.equal(firstPick(m, 0).model.deployment.id, "gpt-5@a");
  assert.equal(firstPick(m, 0.74).model.deployment.id, "gpt-5@a");
  assert.equal(firstPick(m, 0.76).model.deployment.id, "gpt-5@b");
  const last = firstPick(m, 0.999);
  assert.equal(last.model.deployment.id, "gpt-5@b");
  assert.equal(last.waitMs, 0);
  assert.equal(last.model.provider.name, "b");
  assert.equal(last.model.id, "gpt-5");
});

Deno.test("AttemptPlan: the fewest requests in flight per unit of weight wins", () => {
  const busyA = ["gpt-5@a", "gpt-5@a"];
  const pick = (m: ResolvedModel, r: number, busy: string[]) =>
    firstPick(m, r, busy).model.deployment.id;
  assert.equal(pick(model("gpt-5", [["a", 2], ["b", 1]]), 0, busyA), "gpt-5@b");
  assert.equal(pick(model("gpt-5", [["a", 4], ["b", 1]]), 0.999, [...busyA, "gpt-5@b"]), "gpt-5@a");
});

Deno.test("AttemptPlan: a deployment that is cooling is passed over", () => {
  const { plan, health } = planFor(model("gpt-5", ["a", "b"]));
  cool(health, "gpt-5@a", 60_000);
  assert.equal(must(plan.next(null, null)).model.deployment.id, "gpt-5@b");
});

Deno.test("AttemptPlan: after a failure another deployment is tried at once", () => {
  const second = must(afterFirst(planFor(model("gpt-5", ["a", "b"])).plan, failure()));
  assert.equal(second.model.deployment.id, "gpt-5@b", "a draw of 0 picked a first");
  assert.equal(second.waitMs, 0);
});

Deno.test("AttemptPlan: when all failed, a failed one is retried after a backoff", () => {
  const m = model("gpt-5", ["a", "b"]);
  const { plan } = planFor(m, { random: () => 0.25 });
  const a = must(plan.next(null, null));
  const b = must(plan.next(failure(), a.model.deployment));
  const third = must(plan.next(failure(), b.model.deployment));
  assert.equal(a.model.deployment.id, "gpt-5@a");
  assert.equal(b.model.deployment.id, "gpt-5@b");
  assert.equal(third.model.deployment.id, "gpt-5@a");
  assert.equal(third.waitMs, 125, "full jitter: 0.25 of the second retry's 500 ms ceiling");
});

Deno.test("AttemptPlan: the only deployment is retried itself with growing backoff", () => {
  const m = model("gpt-5", ["a"]);
  const { plan } = planFor(m, { random: () => 0.5, retries: 2 });
  const first = must(plan.next(null, null));
  const second = must(plan.next(failure(), first.model.deployment));
  const third = must(plan.next(failure(), second.model.deployment));
  assert.deepEqual([first.waitMs, second.waitMs, third.waitMs], [0, 125, 250]);
  assert.equal(third.model.deployment.id, "gpt-5@a");
  assert.equal(plan.next(failure(), third.model.deployment), null);
});

Deno.test("AttemptPlan: a retry waits the provider's retry-after when it is short", () => {
  const { plan } = planFor(model("gpt-5", ["a"]), { random: () => 0.5 });
  const second = must(afterFirst(plan, failure(503, 5_000)));
  assert.equal(second.model.deployment.id, "gpt-5@a");
  assert.equal(second.waitMs, 5_000);
});

Deno.test("AttemptPlan: a 429 that cooled the only deployment is waited out when short", () => {
  const { plan, health } = planFor(model("gpt-5", ["a"]));
  const second = must(afterFirst(plan, failure(429, 8_000), () => cool(health, "gpt-5@a", 8_000)));
  assert.equal(second.model.deployment.id, "gpt-5@a");
  assert.equal(second.waitMs, 8_000);
});

Deno.test("AttemptPlan: a 429 that cooled one deployment sends the retry to another at once", () => {
  const { plan, health } = planFor(model("gpt-5", ["a", "b"]));
  const second = must(afterFirst(plan, failure(429, 8_000), () => cool(health, "gpt-5@a", 8_000)));
  assert.equal(second.model.deployment.id, "gpt-5@b");
  assert.equal(second.waitMs, 0);
});

Deno.test("AttemptPlan: a 429 retry-after over 30 s is not waited: fallback at once, or none", () => {
  const fell = withFallback();
  const cooled = () => cool(fell.health, "gpt-5@a", 60_000);
  const second = must(afterFirst(fell.plan, failure(429, 60_000), cooled));
  assert.equal(second.model.id, "claude");
  assert.equal(second.waitMs, 0);
  const alone = planFor(model("gpt-5", ["a"]));
  const cooledAlone = () => cool(alone.health, "gpt-5@a", 31_000);
  assert.equal(afterFirst(alone.plan, failure(429, 31_000), cooledAlone), null);
});

Deno.test("AttemptPlan: a retry-after over 30 s is never waited", () => {
  const { plan } = planFor(model("gpt-5", ["a"]), { random: () => 0.999 });
  const second = afterFirst(plan, failure(503, 120_000));
  assert.ok(second === null || second.waitMs < 30_000, String(second?.waitMs));
});

Deno.test("AttemptPlan: a 503 retry-after over 30 s moves on to the fallback at once", () => {
  const second = must(afterFirst(withFallback().plan, failure(503, 120_000)));
  assert.equal(second.model.id, "claude", "the spec: a retry-after > 30 s is not retried");
  assert.equal(second.waitMs, 0);
});

Deno.test("AttemptPlan: 1 + retries attempts per model, then each fallback in order", () => {
  const m = model("gpt-5", ["a"], { fallbacks: ["f1", "f2"] });
  const { plan } = planFor(m, {
    retries: 1,
    models: [model("f1", ["x"]), model("f2", ["y"])],
  });
  assert.deepEqual(runAll(plan), ["gpt-5@a", "gpt-5@a", "f1@x", "f1@x", "f2@y", "f2@y"]);
  const two = model("gpt-5", ["a", "b"], { fallbacks: ["f1"] });
  const once = planFor(two, { retries: 0, models: [model("f1", ["x"])] });
  assert.deepEqual(runAll(once.plan), ["gpt-5@a", "f1@x"], "retries 0: one attempt per model");
});

Deno.test("AttemptPlan: a switch to a fallback waits nothing and names the fallback", () => {
  const { plan } = withFallback({ retries: 0 });
  assert.equal(plan.current.id, "gpt-5");
  const second = must(afterFirst(plan, failure()));
  assert.equal(second.waitMs, 0);
  assert.equal(second.model.id, "claude");
  assert.equal(second.model.provider.name, "anthropic");
  assert.equal(plan.current.id, "claude");
});

Deno.test("AttemptPlan: a fallback `serves` rejects, or the catalog lacks, is skipped", () => {
  const m = model("gpt-5", ["a"], { fallbacks: ["f1", "gone", "f2"] });
  const { plan } = planFor(m, {
    retries: 0,
    models: [model("f1", ["x"]), model("f2", ["y"])],
    serves: (fallback) => fallback.id !== "f1",
  });
  assert.deepEqual(runAll(plan), ["gpt-5@a", "f2@y"]);
});

Deno.test("AttemptPlan: a fallback with every deployment cooling is skipped", () => {
  const m = model("gpt-5", ["a"], { fallbacks: ["f1", "f2"] });
  const { plan, health } = planFor(m, {
    retries: 0,
    models: [model("f1", ["x"]), model("f2", ["y"])],
  });
  cool(health, "f1@x", 60_000);
  assert.deepEqual(runAll(plan), ["gpt-5@a", "f2@y"]);
});

Deno.test("AttemptPlan: nothing usable plans nothing", () => {
  const m = model("gpt-5", ["a"], { fallbacks: ["f1"] });
  const { plan, health } = planFor(m, { models: [model("f1", ["x"])] });
  cool(health, "gpt-5@a", 10_000);
  cool(health, "f1@x", 20_000);
  assert.equal(plan.next(null, null), null);
});

/** An 8k-window `gpt-5` on `a` that overflows to `fallbacks` ([id, window]), each on `<id>p`. */
function overflowing(fallbacks: Array<[string, number]>, retries = 2) {
  const m = model("gpt-5", ["a"], {
    contextWindow: 8_000,
    fallbacks: fallbacks.map(([id]) => id),
    fallbackOnContextOverflow: true,
  });
  const models = fallbacks.map(([id, contextWindow]) => model(id, [`${id}p`], { contextWindow }));
  const setUp = planFor(m, { retries, models });
  return { ...setUp, first: must(setUp.plan.next(null, null)) };
}

Deno.test("AttemptPlan: a context overflow goes to the first fallback with a larger window", () => {
  const { plan, first } = overflowing([["same", 8_000], ["large", 128_000], ["larger", 200_000]]);
  const second = must(plan.next(overflow(), first.model.deployment));
  assert.equal(second.model.id, "large");
  assert.equal(second.waitMs, 0);
  assert.equal(plan.current.id, "large");
});

Deno.test("AttemptPlan: an overflowing fallback gets its own full allowance", () => {
  const { plan, first } = overflowing([["large", 128_000]], 1);
  const second = must(plan.next(overflow(), first.model.deployment));
  const third = must(plan.next(failure(), second.model.deployment));
  assert.equal(third.model.deployment.id, "large@largep");
  assert.equal(plan.next(failure(), third.model.deployment), null);
});

Deno.test("AttemptPlan: a context overflow with no larger fallback ends the plan", () => {
  const { plan, first } = overflowing([["same", 8_000], ["small", 4_000]]);
  assert.equal(plan.next(overflow(), first.model.deployment), null);
});

Deno.test("AttemptPlan: an overflow does not land on a smaller fallback past a cooling larger one", () => {
  const { plan, health, first } = overflowing([["large", 128_000], ["small", 4_000]]);
  cool(health, "large@largep", 60_000);
  const second = plan.next(overflow(), first.model.deployment);
  assert.equal(second?.model.id ?? null, null, "the 4k fallback cannot take what overflowed 8k");
});

Deno.test("AttemptPlan: skipModel moves on to the next fallback", () => {
  const m = model("gpt-5", ["a"], { fallbacks: ["f1", "f2"] });
  const { plan } = planFor(m, {
    retries: 2,
    models: [model("f1", ["x"]), model("f2", ["y"])],
  });
  const first = must(plan.next(null, null));
  plan.skipModel();
  const second = must(plan.next(failure(), first.model.deployment));
  assert.equal(second.model.id, "f1");
  plan.skipModel();
  const third = must(plan.next(failure(), null));
  assert.equal(third.model.id, "f2");
  plan.skipModel();
  assert.equal(plan.next(failure(), null), null);
});

Deno.test("AttemptPlan: soonestRecovery is the earliest cool-down end in the chain", () => {
  const m = model("gpt-5", ["a", "b"], { fallbacks: ["f1"] });
  const { plan, health } = planFor(m, { models: [model("f1", ["x"])] });
  cool(health, "gpt-5@a", 20_000);
  cool(health, "gpt-5@b", 12_000);
  cool(health, "f1@x", 5_000);
  assert.equal(plan.soonestRecovery(START), 5_000);
  assert.equal(plan.soonestRecovery(START + 6_000), 0, "never negative");
});

Deno.test("AttemptPlan: soonestRecovery is null when nothing is cooling", () => {
  const { plan } = planFor(model("gpt-5", ["a"]));
  assert.equal(plan.soonestRecovery(START), null);
});

Deno.test("AttemptPlan: a refused credential is never retried on its deployment", () => {
  const error = upstreamError({
    provider: "p",
    status: 401,
    message: "no",
    headers: new Headers(),
  });
  const refused = new AttemptFailed("credential_refused", 401, error);
  assert.equal(refused.retrySame, false);
  const second = must(afterFirst(withFallback().plan, refused));
  assert.equal(second.model.id, "claude", "straight to the fallback");
  assert.equal(second.waitMs, 0);
  const alone = planFor(model("gpt-5", ["a"])).plan;
  assert.equal(afterFirst(alone, refused), null, "nothing else to try");
});
