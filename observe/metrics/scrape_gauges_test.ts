import assert from "node:assert/strict";
import { loadCatalog } from "../../catalog/load.ts";
import { DeploymentHealth } from "../../gateway/health.ts";
import { InFlight } from "../../gateway/in_flight.ts";
import { openSqliteStore } from "../../store/sqlite/sqlite_store.ts";
import type { UsageRecord } from "../../store/store.ts";
import { createMetrics } from "./metrics.ts";
import { BUDGET_CACHE_MS } from "./scrape_gauges.ts";
import { parseExposition, samplesOf, total } from "./testing.ts";
import { usageRow } from "../../store/store_suite.ts";

const DAY = Date.UTC(2026, 10, 26, 12);

/** A ledger row of `keyId` costing `cost` at `time`, each with its own id. */
function spent(keyId: string, cost: number, time: number): UsageRecord {
  return { ...usageRow(keyId, cost, time), requestId: crypto.randomUUID() };
}

Deno.test("scrape gauges: budget remaining per key and team from the ledger, cached", async () => {
  const store = openSqliteStore(":memory:");
  try {
    await store.createTeam("research", { budgetUsd: 10, budgetPeriod: "month" });
    const { record: alice } = await store.createKey({
      name: "alice",
      team: "research",
      policy: { budgetUsd: 2, budgetPeriod: "day" },
    });
    const { record: bob } = await store.createKey({ name: "bob", team: "research" });
    const { record: gone } = await store.createKey({ name: "gone", policy: { budgetUsd: 1 } });
    await store.revokeKey(gone.id);
    await store.recordUsage(spent(alice.id, 0.5, DAY));
    // Yesterday: outside alice's day, inside the team's month.
    await store.recordUsage(spent(alice.id, 1, DAY - 86_400_000));
    await store.recordUsage(spent(bob.id, 3, DAY));
    let now = DAY + 1000;
    const metrics = createMetrics({
      settings: { keyLabels: false },
      catalog: await loadCatalog({ demo: true, env: () => undefined }),
      store,
      health: () => new DeploymentHealth({ cooldownMs: 1000, failures: 3 }),
      inflight: new InFlight(),
      now: () => now,
    });
    const scrape = async () => parseExposition((await metrics.scrape()).text);
    let x = await scrape();
    const budget = (scope: string, id: string) =>
      samplesOf(x, "gatehouse_budget_remaining_usd", { scope, id })[0];
    assert.deepEqual(budget("key", alice.id), {
      name: "gatehouse_budget_remaining_usd",
      labels: { scope: "key", id: alice.id, period: "day" },
      value: 1.5,
    });
    assert.equal(budget("team", "research")?.value, 10 - 4.5);
    assert.equal(budget("key", gone.id), undefined, "a revoked key has no budget series");
    assert.equal(samplesOf(x, "gatehouse_budget_remaining_usd").length, 2);
    assert.equal(total(x, "gatehouse_budget_usd", { scope: "team" }), 10);
    assert.equal(x.types.get("gatehouse_budget_remaining_usd"), "gauge");

    await store.recordUsage(spent(alice.id, 1, DAY));
    now += 1000;
    x = await scrape();
    assert.equal(budget("key", alice.id)?.value, 1.5, "read at most every few seconds");
    now += BUDGET_CACHE_MS;
    x = await scrape();
    assert.equal(budget("key", alice.id)?.value, 0.5);
  } finally {
    await store.close();
  }
});

Deno.test("scrape gauges: in flight, deployment state, limits ready", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const catalog = await loadCatalog({ demo: true, env: () => undefined });
    const health = new DeploymentHealth({ cooldownMs: 60_000, failures: 1, now: () => 0 });
    const id = catalog.deployments()[0]!.deployment.id;
    const ticket = health.begin(id);
    ticket.failed("boom");
    ticket.done();
    const metrics = createMetrics({
      settings: { keyLabels: false },
      catalog,
      store,
      health: () => health,
      inflight: new InFlight(),
      limits: () => ({ backend: "redis", shared: false, since: 0, detail: "redis down" }),
    });
    const x = parseExposition((await metrics.scrape()).text);
    assert.equal(total(x, "gatehouse_requests_in_flight"), 0);
    assert.equal(total(x, "gatehouse_streams_open"), 0);
    const state = (s: string) =>
      total(x, "gatehouse_deployment_state", { deployment: id, state: s });
    assert.deepEqual([state("healthy"), state("cooling"), state("probing")], [0, 1, 0]);
    assert.equal(
      samplesOf(x, "gatehouse_deployment_state", { state: "healthy" }).length,
      catalog.deployments().length,
    );
    assert.deepEqual(samplesOf(x, "gatehouse_limits_ready"), [{
      name: "gatehouse_limits_ready",
      labels: { backend: "redis" },
      value: 0,
    }]);
  } finally {
    await store.close();
  }
});

Deno.test("scrape gauges: a budget carries its key's name only with the key-labels flag", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const { record: alice } = await store.createKey({
      name: "alice",
      policy: { budgetUsd: 2, budgetPeriod: "day" },
    });
    for (const keyLabels of [false, true]) {
      const metrics = createMetrics({
        settings: { keyLabels },
        catalog: await loadCatalog({ demo: true, env: () => undefined }),
        store,
        health: () => new DeploymentHealth({ cooldownMs: 1000, failures: 3 }),
        inflight: new InFlight(),
      });
      const x = parseExposition((await metrics.scrape()).text);
      const [sample] = samplesOf(x, "gatehouse_budget_usd", { scope: "key", id: alice.id });
      assert.equal(sample?.labels.name, keyLabels ? "alice" : undefined);
      await metrics.close();
    }
  } finally {
    await store.close();
  }
});
