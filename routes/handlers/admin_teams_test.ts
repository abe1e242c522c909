import assert from "node:assert/strict";
import { makeHarness } from "../../tests/harness.ts";
import { adminCall, assertError, usageRow } from "./admin_test_kit.ts";

const TEAMS = "/admin/v1/teams";

Deno.test("teams: create, get, list with key counts and team spend, PATCH with null clearing", async () => {
  const h = await makeHarness();
  try {
    const created = await adminCall(h, "POST", TEAMS, {
      id: "research",
      rpm: 600,
      tpm: 100_000,
      budget_usd: 100,
      budget_period: "month",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.object, "team");
    assert.equal(created.body.keys, 0);
    assert.deepEqual(created.body.policy, {
      rpm: 600,
      tpm: 100_000,
      budget_usd: 100,
      budget_period: "month",
    });
    assert.equal(created.body.budget.spent_usd, 0);

    const a = await adminCall(h, "POST", "/admin/v1/keys", { name: "a", team: "research" });
    const b = await adminCall(h, "POST", "/admin/v1/keys", { name: "b", team: "research" });
    await adminCall(h, "DELETE", `/admin/v1/keys/${b.body.id}`);
    await h.deps.store.recordUsage(usageRow(a.body.id, "gpt-5", 4));

    const got = await adminCall(h, "GET", `${TEAMS}/research`);
    assert.equal(got.status, 200);
    assert.equal(got.body.keys, 1, "the revoked key is not counted");
    assert.equal(got.body.budget.spent_usd, 4);
    assert.equal(got.body.budget.remaining_usd, 96);
    const list = await adminCall(h, "GET", TEAMS);
    assert.equal(list.body.object, "list");
    assert.deepEqual(list.body.data, [got.body]);

    const patched = await adminCall(h, "PATCH", `${TEAMS}/research`, { tpm: null, rpm: 300 });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.policy, { rpm: 300, budget_usd: 100, budget_period: "month" });
    assert.ok(Date.parse(patched.body.updated_at) >= Date.parse(created.body.updated_at));
    const cleared = await adminCall(h, "PATCH", `${TEAMS}/research`, { budget_usd: null });
    assert.deepEqual(cleared.body.policy, { rpm: 300 });
    assert.equal(cleared.body.budget, null);
  } finally {
    await h.close();
  }
});

Deno.test("teams: 409 for a taken id, 400 for a bad one or a bad field, 404 for none", async () => {
  const h = await makeHarness();
  try {
    assert.equal((await adminCall(h, "POST", TEAMS, { id: "ops" })).status, 200);
    assertError(await adminCall(h, "POST", TEAMS, { id: "ops", rpm: 5 }), 409, {
      code: "team_exists",
      message: /already exists/,
    });
    assertError(await adminCall(h, "POST", TEAMS, { id: "Ops Team" }), 400, { param: "id" });
    assertError(await adminCall(h, "POST", TEAMS, {}), 400, { param: "id" });
    assertError(await adminCall(h, "POST", TEAMS, { id: "x", budget: 5 }), 400, {
      message: /budget/,
    });
    assertError(await adminCall(h, "PATCH", `${TEAMS}/ops`, { max_parallel: 0 }), 400, {
      param: "max_parallel",
    });
    assertError(await adminCall(h, "GET", `${TEAMS}/nosuch`), 404, {
      code: "team_not_found",
      message: /GET \/admin\/v1\/teams/,
    });
    assertError(await adminCall(h, "PATCH", `${TEAMS}/nosuch`, { rpm: 1 }), 404);
    assertError(await adminCall(h, "DELETE", `${TEAMS}/nosuch`), 404);
  } finally {
    await h.close();
  }
});

Deno.test("teams: DELETE is 409 while a live key belongs to the team, then deletes", async () => {
  const h = await makeHarness();
  try {
    await adminCall(h, "POST", TEAMS, { id: "temp" });
    const key = await adminCall(h, "POST", "/admin/v1/keys", { name: "k", team: "temp" });
    assertError(await adminCall(h, "DELETE", `${TEAMS}/temp`), 409, {
      code: "team_not_empty",
      message: /still has 1 key:/,
    });
    await adminCall(h, "PATCH", `/admin/v1/keys/${key.body.id}`, { team: null });
    const deleted = await adminCall(h, "DELETE", `${TEAMS}/temp`);
    assert.deepEqual(deleted, {
      status: 200,
      body: { object: "team.deleted", id: "temp", deleted: true },
    });
    assertError(await adminCall(h, "GET", `${TEAMS}/temp`), 404);
  } finally {
    await h.close();
  }
});
