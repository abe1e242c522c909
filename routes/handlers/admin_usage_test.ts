import assert from "node:assert/strict";
import { makeHarness } from "../../tests/harness.ts";
import { adminCall, assertError, idOf, usageRow } from "./admin_test_kit.ts";

const DAY = 86_400_000;

/** A gateway with keys in two teams and one without, and a ledger over two days. */
async function setUp() {
  const h = await makeHarness();
  await h.deps.store.createTeam("red", {});
  await h.deps.store.createTeam("blue", {});
  const red = (await h.deps.store.createKey({ name: "r", team: "red" })).record.id;
  const blue = (await h.deps.store.createKey({ name: "b", team: "blue" })).record.id;
  const loner = idOf(h.key);
  const yesterday = Date.now() - DAY;
  for (
    const row of [
      usageRow(red, "gpt-5", 1),
      usageRow(red, "claude-sonnet-5", 2, yesterday),
      usageRow(blue, "gpt-5", 4),
      usageRow(loner, "gpt-5-mini", 8),
    ]
  ) await h.deps.store.recordUsage(row);
  return { h, red, blue, loner };
}

const byKey = (groups: Array<{ key: string; cost: number; requests: number }>) =>
  Object.fromEntries(groups.map((g) => [g.key, [g.requests, g.cost]]));

Deno.test("admin usage: everyone's totals, grouped by key, team, model or day", async () => {
  const { h, red, blue, loner } = await setUp();
  try {
    const all = await adminCall(h, "GET", "/admin/v1/usage");
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body.object, "usage_report");
    assert.equal(all.body.key_id, null);
    assert.equal(all.body.team, null);
    assert.equal(all.body.group_by, null);
    assert.equal(all.body.groups, undefined);
    assert.equal(all.body.totals.requests, 4);
    assert.equal(all.body.totals.cost, 15);
    assert.equal(all.body.totals.outcomes.ok, 4);

    const keys = await adminCall(h, "GET", "/admin/v1/usage?group_by=key");
    assert.deepEqual(byKey(keys.body.groups), {
      [red]: [2, 3],
      [blue]: [1, 4],
      [loner]: [1, 8],
    });
    const teams = await adminCall(h, "GET", "/admin/v1/usage?group_by=team");
    assert.deepEqual(byKey(teams.body.groups), { red: [2, 3], blue: [1, 4], "": [1, 8] });
    const models = await adminCall(h, "GET", "/admin/v1/usage?group_by=model");
    assert.deepEqual(byKey(models.body.groups), {
      "gpt-5": [2, 5],
      "claude-sonnet-5": [1, 2],
      "gpt-5-mini": [1, 8],
    });
    const days = await adminCall(h, "GET", "/admin/v1/usage?group_by=day");
    assert.equal(days.body.groups.length, 2);
    assert.match(days.body.groups[0].key, /^\d{4}-\d{2}-\d{2}$/);
  } finally {
    await h.close();
  }
});

Deno.test("admin usage: key_id and team filters, and the window", async () => {
  const { h, red } = await setUp();
  try {
    const one = await adminCall(h, "GET", `/admin/v1/usage?key_id=${red}&group_by=model`);
    assert.equal(one.body.key_id, red);
    assert.equal(one.body.totals.cost, 3);
    assert.deepEqual(byKey(one.body.groups), { "gpt-5": [1, 1], "claude-sonnet-5": [1, 2] });
    const team = await adminCall(h, "GET", "/admin/v1/usage?team=blue");
    assert.equal(team.body.team, "blue");
    assert.equal(team.body.totals.cost, 4);
    const today = new Date().toISOString().slice(0, 10);
    const recent = await adminCall(h, "GET", `/admin/v1/usage?start=${today}&key_id=${red}`);
    assert.equal(recent.body.start, `${today}T00:00:00.000Z`);
    assert.equal(recent.body.totals.requests, 1, "yesterday's row is before the window");

    assertError(await adminCall(h, "GET", "/admin/v1/usage?group_by=week"), 400, {
      message: /group_by/,
    });
    assertError(await adminCall(h, "GET", "/admin/v1/usage?start=yesterday"), 400, {
      param: "start",
    });
    assertError(
      await adminCall(h, "GET", "/admin/v1/usage?start=2026-02-01&end=2026-01-01"),
      400,
      { message: /start must be before end/ },
    );
  } finally {
    await h.close();
  }
});
