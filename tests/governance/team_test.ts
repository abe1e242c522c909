/**
 * A team's policy is shared by its keys, on top of each key's own, on every protocol: a team
 * rpm of 3 with two keys lets 2 + 1 through and refuses the fourth with a message naming the
 * team; a key's own tighter limit refuses it first, naming the key; a team budget spent by one
 * key stops the other; a team's models list narrows its keys'.
 */
import assert from "node:assert/strict";
import { expectedUse } from "../../governance/estimate.ts";
import {
  bodyFor,
  clockAt,
  envelopeOf,
  PASSTHROUGH,
  refusalType,
  startGov,
  TRANSLATED,
  until,
  type Wire,
  WIRES,
} from "./gov_kit.ts";

const clock = clockAt(Date.UTC(2031, 0, 1, 0, 0, 30));
const gov = await startGov({ clock });
const store = gov.h.deps.store;
let teams = 0;

async function send(wire: Wire, secret: string, model: string): Promise<Response> {
  return await gov.send(wire, secret, bodyFor(wire, model));
}

/** A new team with `policy` and keys with their own policies. */
async function team(policy: Parameters<typeof store.createTeam>[1], ...keys: object[]) {
  const id = `team-${++teams}`;
  await store.createTeam(id, policy);
  return { id, keys: await Promise.all(keys.map((own) => gov.key(own, id))) };
}

for (const wire of WIRES) {
  const model = PASSTHROUGH[wire].model;
  const translated = TRANSLATED[wire].model;

  Deno.test(`${wire}: a team rpm of 3 is shared by its two keys: 2 + 2 → the 4th refused`, async () => {
    const { id, keys: [a, b] } = await team({ rpm: 3 }, {}, {});
    for (const [key, m] of [[a, model], [a, translated], [b, model]] as const) {
      const ok = await send(wire, key!.secret, m);
      assert.equal(ok.status, 200);
      await ok.json();
    }
    const refused = await send(wire, b!.secret, translated);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) >= 59);
    const error = envelopeOf(wire, await refused.json());
    assert.equal(error.type, refusalType(wire, "rate_limit"));
    assert.match(error.message, new RegExp(`team "${id}" \\(shared by its keys\\)`));
    assert.match(error.message, /3 requests per minute/);
    // Each key's usage shows the team's window: nothing left for either.
    for (const key of [a!, b!]) {
      const usage = await (await gov.get("/v1/usage", key.secret)).json();
      assert.equal(usage.team, id);
      assert.deepEqual(usage.team_policy, { rpm: 3 });
      assert.deepEqual(
        [usage.rate_limits.requests.scope, usage.rate_limits.requests.remaining],
        ["team", 0],
      );
    }
  });

  Deno.test(`${wire}: a key's own limit applies on top of its team's`, async () => {
    const { id, keys: [a, b] } = await team({ rpm: 3 }, { rpm: 1 }, {});
    const first = await send(wire, a!.secret, model);
    assert.equal(first.status, 200);
    await first.json();
    const own = await send(wire, a!.secret, model);
    assert.equal(own.status, 429);
    assert.match(
      envelopeOf(wire, await own.json()).message,
      /for this key: 1 request per minute \(rpm\), and 1 was admitted/,
    );
    // The other key still has the team's room: two more, then the team's refusal.
    for (let i = 0; i < 2; i++) {
      const ok = await send(wire, b!.secret, translated);
      assert.equal(ok.status, 200);
      await ok.json();
    }
    const teamRefusal = await send(wire, b!.secret, model);
    assert.equal(teamRefusal.status, 429);
    assert.match(envelopeOf(wire, await teamRefusal.json()).message, new RegExp(`team "${id}"`));
  });

  Deno.test(`${wire}: a team budget spent by one key stops the other`, async () => {
    const body = bodyFor(wire, model, { maxTokens: 4 });
    const bytes = JSON.stringify(body).length;
    const reserves = expectedUse(gov.h.deps.catalog.resolve(model)!, "", body, bytes);
    // Room for one reservation: once the first request has cost anything, the next does not fit.
    const budget = Math.ceil(reserves.reservationUsd * 1e6) / 1e6;
    const { id, keys: [a, b] } = await team({ budgetUsd: budget, budgetPeriod: "day" }, {}, {});
    const spend = await gov.send(wire, a!.secret, body);
    assert.equal(spend.status, 200);
    await spend.json();
    assert.ok(await until(() => gov.rows(a!.id).length === 1));
    const refused = await gov.send(wire, b!.secret, body);
    assert.equal(refused.status, 429);
    const error = envelopeOf(wire, await refused.json());
    assert.equal(error.type, refusalType(wire, "quota"));
    assert.match(error.message, new RegExp(`Budget exceeded for team "${id}"`));
    const usage = await (await gov.get("/v1/usage", b!.secret)).json();
    assert.equal(usage.budget, null, "the key has no budget of its own");
    assert.equal(usage.team_budget.budget_usd, budget);
    assert.ok(Math.abs(usage.team_budget.spent_usd - gov.rows(a!.id)[0]!.cost) < 2e-6);
  });
}

Deno.test("a team's models list narrows its keys' own", async () => {
  const { id, keys: [a] } = await team({ models: ["claude-*"] }, { models: ["*"] });
  const refused = await send("chat", a!.secret, "gpt-5");
  assert.equal(refused.status, 403);
  const error = envelopeOf("chat", await refused.json());
  assert.equal(error.type, "permission_error");
  assert.match(error.message, new RegExp(`not allowed for team "${id}" of this key`));
  const ok = await send("chat", a!.secret, "claude-sonnet-5");
  assert.equal(ok.status, 200);
  await ok.json();
  const listed = await (await gov.get("/v1/models", a!.secret)).json();
  assert.ok(listed.data.length > 0);
  assert.ok(listed.data.every((m: { id: string }) => m.id.startsWith("claude-")));
});

Deno.test("team: close", async () => {
  await gov.close();
});
