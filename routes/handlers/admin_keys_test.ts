import assert from "node:assert/strict";
import { makeHarness } from "../../tests/harness.ts";
import { adminCall, assertError, idOf, usageRow } from "./admin_test_kit.ts";

const KEYS = "/admin/v1/keys";

Deno.test("create returns the secret once; list and get never show it", async () => {
  const h = await makeHarness();
  try {
    const created = await adminCall(h, "POST", KEYS, {
      name: "alice",
      models: ["gpt-5*"],
      rpm: 60,
      budget_usd: 20,
      budget_period: "month",
      expires_at: "2030-01-01",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { key, ...shown } = created.body;
    assert.match(key, /^gth_[a-z2-7]{10}_[0-9A-Za-z]{32}$/);
    assert.equal(shown.object, "key");
    assert.equal(shown.id, idOf(key));
    assert.equal(shown.admin, false);
    assert.equal(shown.team, null);
    assert.deepEqual(shown.policy, {
      models: ["gpt-5*"],
      rpm: 60,
      budget_usd: 20,
      budget_period: "month",
      expires_at: "2030-01-01T00:00:00.000Z",
    });
    assert.equal(shown.expires_at, "2030-01-01T00:00:00.000Z");
    assert.equal(shown.budget.spent_usd, 0);
    assert.equal(shown.budget.remaining_usd, 20);
    assert.equal(shown.revoked_at, null);
    const check = await h.deps.store.checkKey(key);
    assert.ok("record" in check && check.record.policy.rpm === 60);

    const list = await adminCall(h, "GET", KEYS);
    assert.equal(list.status, 200);
    assert.equal(list.body.object, "list");
    assert.deepEqual(list.body.data.map((k: { name: string }) => k.name).sort(), [
      "admin",
      "alice",
      "test",
    ]);
    const got = await adminCall(h, "GET", `${KEYS}/${shown.id}`);
    // checkKey above used the key.
    assert.deepEqual(got.body, { ...shown, last_used_at: got.body.last_used_at });
    assert.ok(Date.parse(got.body.last_used_at) <= Date.now());
    for (const answer of [list, got]) {
      const text = JSON.stringify(answer.body);
      assert.ok(!/"key":/.test(text), "no key field");
      for (const secret of [key, h.key, h.adminKey]) {
        assert.ok(!text.includes(secret.split("_")[2]!), "a secret was shown");
      }
    }
  } finally {
    await h.close();
  }
});

Deno.test("create: a missing name, an unknown field, a bad value or team is a 400 naming it", async () => {
  const h = await makeHarness();
  try {
    await h.deps.store.createTeam("research", {});
    const cases: Array<[unknown, string, string | undefined]> = [
      [{}, "name", undefined],
      [{ name: "a", nmae: "b" }, "", undefined],
      [{ name: "a", rpm: 0 }, "rpm", undefined],
      [{ name: "a", budget_period: "weekly", budget_usd: 1 }, "budget_period", undefined],
      [{ name: "a", budget_period: "week" }, "budget_period", undefined],
      [{ name: "a", expires_at: "tomorrow" }, "expires_at", undefined],
      [{ name: "a", team: "Bad Team" }, "team", undefined],
      [{ name: "a", team: "nosuch" }, "team", "team_not_found"],
    ];
    for (const [body, param, code] of cases) {
      const answer = await adminCall(h, "POST", KEYS, body);
      assertError(answer, 400, { code });
      if (param !== "") assert.equal(answer.body.error.param, param, JSON.stringify(body));
    }
    const unknown = await adminCall(h, "POST", KEYS, { name: "a", nmae: "b" });
    assert.match(unknown.body.error.message, /nmae/);
    const team = await adminCall(h, "POST", KEYS, { name: "a", team: "nosuch" });
    assert.match(team.body.error.message, /create it first/);
    const ok = await adminCall(h, "POST", KEYS, { name: "b", team: "research", admin: true });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.team, "research");
    assert.equal(ok.body.admin, true);
  } finally {
    await h.close();
  }
});

Deno.test("PATCH changes what it names, keeps the rest, and null clears", async () => {
  const h = await makeHarness();
  try {
    await h.deps.store.createTeam("research", {});
    const created = await adminCall(h, "POST", KEYS, {
      name: "bob",
      team: "research",
      rpm: 10,
      tpm: 1000,
      budget_usd: 5,
      budget_period: "day",
    });
    const path = `${KEYS}/${created.body.id}`;
    const patched = await adminCall(h, "PATCH", path, {
      name: "robert",
      rpm: 20,
      budget_usd: null,
      team: null,
      admin: true,
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.name, "robert");
    assert.equal(patched.body.team, null);
    assert.equal(patched.body.admin, true);
    assert.deepEqual(patched.body.policy, { rpm: 20, tpm: 1000 });
    assert.equal(patched.body.budget, null);
    const again = await adminCall(h, "PATCH", path, { expires_at: "1d" });
    assert.deepEqual(Object.keys(again.body.policy).sort(), ["expires_at", "rpm", "tpm"]);
    assert.ok(Date.parse(again.body.expires_at) > Date.now() + 86_000_000);
    assert.deepEqual((await adminCall(h, "GET", path)).body, again.body);

    assertError(await adminCall(h, "PATCH", path, { rpm: 5, colour: "red" }), 400, {
      message: /colour/,
    });
    assertError(await adminCall(h, "PATCH", path, { team: "nosuch" }), 400, { param: "team" });
    assertError(await adminCall(h, "PATCH", `${KEYS}/nosuchkey0`, { rpm: 1 }), 404, {
      code: "key_not_found",
      message: /GET \/admin\/v1\/keys/,
    });
    assertError(await adminCall(h, "GET", `${KEYS}/nosuchkey0`), 404, { code: "key_not_found" });
  } finally {
    await h.close();
  }
});

Deno.test("rotate: a new secret once; the old one works during the grace, then not", async () => {
  const h = await makeHarness();
  try {
    const created = await adminCall(h, "POST", KEYS, { name: "ci" });
    const old = created.body.key;
    const id = created.body.id;
    const rotated = await adminCall(h, "POST", `${KEYS}/${id}/rotate`, { grace_seconds: 3600 });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.notEqual(rotated.body.key, old);
    assert.equal(idOf(rotated.body.key), id);
    assert.ok(Date.parse(rotated.body.rotated_at) <= Date.now());
    const until = Date.parse(rotated.body.previous_valid_until);
    assert.ok(
      Math.abs(until - (Date.now() + 3_600_000)) < 60_000,
      rotated.body.previous_valid_until,
    );
    assert.ok("record" in await h.deps.store.checkKey(rotated.body.key));
    assert.ok("record" in await h.deps.store.checkKey(old), "the old secret works in the grace");
    assert.ok(!/"key":/.test(JSON.stringify((await adminCall(h, "GET", `${KEYS}/${id}`)).body)));

    const defaulted = await adminCall(h, "POST", `${KEYS}/${id}/rotate`, {});
    const grace = Date.parse(defaulted.body.previous_valid_until) - Date.now();
    assert.ok(Math.abs(grace - 86_400_000) < 60_000, "a day by default");

    const now = await adminCall(h, "POST", `${KEYS}/${id}/rotate`, { grace_seconds: 0 });
    const check = await h.deps.store.checkKey(defaulted.body.key);
    assert.deepEqual("reason" in check ? check.reason : "accepted", "rotated");
    assert.ok("record" in await h.deps.store.checkKey(now.body.key));

    assertError(await adminCall(h, "POST", `${KEYS}/${id}/rotate`, { grace_seconds: -1 }), 400, {
      param: "grace_seconds",
    });
    assertError(await adminCall(h, "POST", `${KEYS}/nosuchkey0/rotate`, {}), 404);
    await adminCall(h, "DELETE", `${KEYS}/${id}`);
    assertError(await adminCall(h, "POST", `${KEYS}/${id}/rotate`, {}), 409, {
      code: "key_revoked",
    });
  } finally {
    await h.close();
  }
});

Deno.test("DELETE revokes: the key object with revoked_at, the key refused; again is the same", async () => {
  const h = await makeHarness();
  try {
    const created = await adminCall(h, "POST", KEYS, { name: "gone" });
    const path = `${KEYS}/${created.body.id}`;
    const revoked = await adminCall(h, "DELETE", path);
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.object, "key");
    assert.ok(Date.parse(revoked.body.revoked_at) <= Date.now());
    assert.equal(revoked.body.key, undefined);
    const check = await h.deps.store.checkKey(created.body.key);
    assert.equal("reason" in check ? check.reason : "accepted", "revoked");
    assert.deepEqual((await adminCall(h, "DELETE", path)).body, revoked.body);
    assertError(await adminCall(h, "DELETE", `${KEYS}/nosuchkey0`), 404);
  } finally {
    await h.close();
  }
});

Deno.test("a key's budget shows its spend in the period and what is left", async () => {
  const h = await makeHarness();
  try {
    const created = await adminCall(h, "POST", KEYS, { name: "spender", budget_usd: 10 });
    await h.deps.store.recordUsage(usageRow(created.body.id, "gpt-5", 2.5));
    await h.deps.store.recordUsage(usageRow(created.body.id, "gpt-5", 1.25));
    const list = await adminCall(h, "GET", KEYS);
    const shown = list.body.data.find((k: { id: string }) => k.id === created.body.id);
    assert.deepEqual(shown.budget, {
      budget_usd: 10,
      period: "total",
      period_start: null,
      resets_at: null,
      spent_usd: 3.75,
      in_flight_usd: 0,
      remaining_usd: 6.25,
    });
    const other = list.body.data.find((k: { name: string }) => k.name === "test");
    assert.equal(other.budget, null);
  } finally {
    await h.close();
  }
});
