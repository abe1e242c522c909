import assert from "node:assert/strict";
import { type Harness, makeHarness, upstreamEnv } from "../tests/harness.ts";
import { readiness } from "./readiness.ts";

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const clock = () => NOW;

/** Both built-in providers with their credentials, a fixed clock. */
function realHarness(env: Record<string, string> = upstreamEnv("http://127.0.0.1:9")) {
  return makeHarness({ demo: false, env, clock });
}

/** `GET /readyz` through the app. */
async function readyz(h: Harness) {
  const response = await h.request("/readyz");
  return { status: response.status, body: await response.json() };
}

/** Cools `id` for `ms` (a 429 with retry-after does it in one failure). */
function cool(h: Harness, id: string, ms: number): void {
  const ticket = h.deps.health.begin(id);
  ticket.failed("HTTP 429", ms);
  ticket.done();
}

function listedIds(h: Harness): string[] {
  return h.deps.catalog.deployments().filter((d) => d.listed).map((d) => d.deployment.id);
}

Deno.test("/readyz: 200 with every check ok", async () => {
  const h = await realHarness();
  try {
    assert.deepEqual(await readyz(h), {
      status: 200,
      body: { status: "ok", checks: { store: "ok", deployments: "ok", limits: "in process" } },
    });
  } finally {
    await h.close();
  }
});

Deno.test("/readyz: 503 while draining, naming the shutdown", async () => {
  const h = await realHarness();
  try {
    const untrack = h.deps.inflight.track({ shutDown: () => {}, settleNow: () => {} });
    const drained = h.deps.inflight.drain(10_000, "SIGTERM");
    const { status, body } = await readyz(h);
    assert.equal(status, 503);
    assert.equal(body.status, "unavailable");
    assert.deepEqual(body.checks, { store: "ok", deployments: "ok", limits: "in process" });
    assert.deepEqual(body.reasons, ["shutting down: SIGTERM received, 1 request in flight"]);
    untrack();
    await drained;
  } finally {
    await h.close();
  }
});

Deno.test("/readyz: 503 when every listed deployment cools down, each named with its end", async () => {
  const h = await realHarness();
  try {
    const ids = listedIds(h);
    assert.ok(ids.length > 1);
    for (const id of ids.slice(1)) cool(h, id, 60_000);
    assert.equal((await readyz(h)).status, 200, "one usable deployment is enough");
    cool(h, ids[0]!, 30_000);
    const { status, body } = await readyz(h);
    assert.equal(status, 503);
    assert.deepEqual(body.checks, {
      store: "ok",
      deployments: "none usable",
      limits: "in process",
    });
    assert.match(body.reasons[0], new RegExp(`none of the ${ids.length} deployments`));
    assert.equal(body.reasons.length, ids.length + 1);
    assert.ok(
      body.reasons.includes(`deployment ${ids[0]} is cooling down until 2026-01-15T12:00:30.000Z`),
    );
    assert.ok(
      body.reasons.includes(`deployment ${ids[1]} is cooling down until 2026-01-15T12:01:00.000Z`),
    );
  } finally {
    await h.close();
  }
});

Deno.test("readiness: a deployment that is not listed (no credential) does not count", async () => {
  const { ANTHROPIC_API_KEY: _, ...openaiOnly } = upstreamEnv("http://127.0.0.1:9");
  const h = await realHarness(openaiOnly);
  try {
    const listed = h.deps.catalog.deployments().filter((d) => d.listed);
    assert.ok(listed.every((d) => d.deployment.provider.kind !== "anthropic"));
    for (const { deployment } of listed) cool(h, deployment.id, 60_000);
    const verdict = await readiness(h.deps);
    assert.equal(verdict.ready, false);
    assert.equal(verdict.reasons.length, listed.length + 1);
  } finally {
    await h.close();
  }
});

Deno.test("readiness: with no credentials nothing can be served", async () => {
  const h = await realHarness({});
  try {
    const verdict = await readiness(h.deps);
    assert.equal(verdict.ready, false);
    assert.equal(verdict.checks.deployments, "none listed");
    assert.match(verdict.reasons[0]!, /no provider credentials/);
  } finally {
    await h.close();
  }
});

Deno.test("readiness: the demo's mock deployments are always usable", async () => {
  const h = await makeHarness({ clock });
  try {
    for (const id of listedIds(h)) cool(h, id, 60_000);
    assert.deepEqual(await readiness(h.deps), {
      ready: true,
      checks: { store: "ok", deployments: "ok", limits: "in process" },
      reasons: [],
    });
  } finally {
    await h.close();
  }
});

Deno.test("/readyz: 503 naming the store's error when the store fails", async () => {
  const h = await realHarness();
  await h.close();
  const { status, body } = await readyz(h);
  assert.equal(status, 503);
  assert.equal(body.status, "unavailable");
  assert.notEqual(body.checks.store, "ok");
  assert.equal(body.checks.deployments, "ok");
  assert.deepEqual(body.reasons, [`store: ${body.checks.store}`]);
});

Deno.test("readiness: limits that refuse (Redis down, reject mode) make the process not ready", async () => {
  const h = await makeHarness({ clock });
  try {
    const detail = "refusing: Redis at redis://127.0.0.1:6379 is unreachable";
    const verdict = await readiness({ ...h.deps, limits: () => ({ detail, ready: false }) });
    assert.equal(verdict.ready, false);
    assert.equal(verdict.checks.limits, detail);
    assert.deepEqual(verdict.reasons, [`limits: ${detail}`]);
    const local = "local: Redis at redis://127.0.0.1:6379 unreachable since 12:00:00Z";
    const open = await readiness({ ...h.deps, limits: () => ({ detail: local, ready: true }) });
    assert.equal(open.ready, true);
    assert.equal(open.checks.limits, local);
  } finally {
    await h.close();
  }
});
