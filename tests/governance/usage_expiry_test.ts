/**
 * An expired key is refused with 401 saying that it expired and when, on every protocol (its
 * own expiry, set through the admin API or the store, or its team's). `GET /v1/usage` shows a
 * key its policy, its spend in the budget period, the budget left, when it resets and its rate
 * limits; a key never sees another key's usage.
 */
import assert from "node:assert/strict";
import { bodyFor, envelopeOf, readStream, startGov, until, type Wire, WIRES } from "./gov_kit.ts";

const gov = await startGov({ pace: { delayMs: 1 } });

/** Creates a key through the admin API; its secret and id. */
async function adminCreate(body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const response = await fetch(`${gov.url}/admin/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${gov.h.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  const created = await response.json();
  return { id: created.id, secret: created.key };
}

async function expectExpired(wire: Wire, secret: string, at: string): Promise<void> {
  const response = await gov.send(wire, secret, bodyFor(wire, "gpt-5"));
  assert.equal(response.status, 401);
  const error = envelopeOf(wire, await response.json());
  assert.equal(error.type, "authentication_error");
  if (wire !== "messages") assert.equal(error.code, "expired_api_key");
  assert.match(error.message, new RegExp(`The API key expired at ${at.replace(/\./g, "\\.")}`));
}

for (const wire of WIRES) {
  Deno.test(`${wire}: an expired key gets 401 naming when it expired`, async () => {
    const viaAdmin = await adminCreate({ name: "old", expires_at: "2020-01-01" });
    await expectExpired(wire, viaAdmin.secret, "2020-01-01T00:00:00.000Z");
    const past = Date.now() - 3_600_000;
    const viaStore = await gov.key({ expiresAt: past });
    await expectExpired(wire, viaStore.secret, new Date(past).toISOString());
    const teamId = `expired-${wire}`;
    await gov.h.deps.store.createTeam(teamId, { expiresAt: past });
    const ofTeam = await gov.key({}, teamId);
    await expectExpired(wire, ofTeam.secret, new Date(past).toISOString());
    // Nothing before authentication writes a row; a key that has not expired yet works.
    assert.equal(gov.rows(viaStore.id).length + gov.rows(ofTeam.id).length, 0);
    const fresh = await gov.key({ expiresAt: Date.now() + 3_600_000 });
    const ok = await gov.send(wire, fresh.secret, bodyFor(wire, "gpt-5"));
    assert.equal(ok.status, 200);
    await ok.json();
  });
}

Deno.test("GET /v1/usage: the key's policy, spend in period, budget left, reset, rate limits", async () => {
  const key = await adminCreate({
    name: "metered",
    models: ["gpt-5*"],
    rpm: 10,
    tpm: 50_000,
    max_parallel: 4,
    budget_usd: 1,
    budget_period: "day",
    expires_at: "30d",
  });
  // A whole answer reserves all it may produce: a max_tokens keeps that within the $1.
  const whole = await gov.send("chat", key.secret, bodyFor("chat", "gpt-5", { maxTokens: 500 }));
  assert.equal(whole.status, 200);
  await whole.json();
  const stream = await gov.send(
    "messages",
    key.secret,
    bodyFor("messages", "gpt-5", {
      stream: true,
    }),
  );
  assert.equal((await readStream("messages", stream)).ending, "clean");
  assert.ok(await until(() => gov.rows(key.id).length === 2));
  const rows = gov.rows(key.id);
  const spent = rows.reduce((sum, row) => sum + row.cost, 0);
  const tokens = rows.reduce((sum, row) => sum + row.inputTokens + row.outputTokens, 0);

  const usage = await (await gov.get("/v1/usage", key.secret)).json();
  assert.equal(usage.key_id, key.id);
  const { expires_at, ...policy } = usage.policy;
  assert.deepEqual(policy, {
    models: ["gpt-5*"],
    rpm: 10,
    tpm: 50_000,
    max_parallel: 4,
    budget_usd: 1,
    budget_period: "day",
  });
  const in30Days = Date.parse(expires_at) - Date.now();
  assert.ok(Math.abs(in30Days - 30 * 86_400_000) < 60_000, "expires in 30 days");
  assert.equal(usage.totals.requests, 2);
  assert.equal(usage.totals.outcomes.ok, 2);
  assert.ok(Math.abs(usage.totals.cost - spent) < 2e-6);

  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  assert.equal(usage.budget.budget_usd, 1);
  assert.equal(usage.budget.period, "day");
  assert.equal(usage.budget.period_start, new Date(today).toISOString());
  assert.equal(usage.budget.resets_at, new Date(today + 86_400_000).toISOString());
  assert.ok(Math.abs(usage.budget.spent_usd - spent) < 2e-6, "the spend in this period");
  assert.equal(usage.budget.in_flight_usd, 0);
  assert.ok(Math.abs(usage.budget.remaining_usd - (1 - spent)) < 2e-6);

  const { requests, tokens: tpm, parallel } = usage.rate_limits;
  assert.deepEqual([requests.scope, requests.limit, requests.remaining], ["key", 10, 8]);
  assert.ok(Date.parse(requests.reset_at) > Date.now(), "the requests window resets later");
  assert.deepEqual([tpm.limit, tpm.remaining], [50_000, 50_000 - tokens]);
  assert.deepEqual(parallel, { scope: "key", limit: 4, in_flight: 0 });
  assert.deepEqual([usage.team, usage.team_policy, usage.team_budget], [null, null, null]);
});

Deno.test("GET /v1/usage: a key never sees another key's usage", async () => {
  const busy = await gov.key({ budgetUsd: 5 });
  const ok = await gov.send("responses", busy.secret, bodyFor("responses", "gpt-5"));
  assert.equal(ok.status, 200);
  await ok.json();
  assert.ok(await until(() => gov.rows(busy.id).length === 1));
  const other = await gov.key({});
  for (const query of ["", `?key_id=${busy.id}`, "?group_by=model", `?team=x&key_id=${busy.id}`]) {
    const usage = await (await gov.get(`/v1/usage${query}`, other.secret)).json();
    assert.equal(usage.key_id, other.id, query);
    assert.equal(usage.totals.requests, 0, query);
    assert.equal(usage.totals.cost, 0, query);
    assert.deepEqual(usage.groups ?? [], [], query);
    assert.equal(usage.budget, null, "nor another key's budget");
  }
  const own = await (await gov.get("/v1/usage", busy.secret)).json();
  assert.equal(own.totals.requests, 1);
  assert.ok(own.budget.spent_usd > 0);
});

Deno.test("usage and expiry: close", async () => {
  await gov.close();
});
