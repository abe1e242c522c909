import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { KeyCheck } from "../store.ts";
import { openDatabase } from "./open.ts";
import { KeyRegistry } from "./key_registry.ts";
import { testKeyRecord } from "../test_records.ts";

const START = Date.UTC(2025, 0, 1);

function registry() {
  let now = START;
  const db = openDatabase(":memory:");
  const keys = new KeyRegistry(db, { now: () => now });
  const generation = () => db.prepare("SELECT value FROM meta").get()?.value;
  return { keys, generation, advance: (ms: number) => (now += ms), now: () => now };
}

/** The refusal reason, or "live". */
function reason(check: KeyCheck): string {
  return "record" in check ? "live" : check.reason;
}

Deno.test("createKey: a bare name is a plain key; a NewKey sets admin, team and policy", () => {
  const { keys, advance } = registry();
  const plain = keys.createKey("laptop");
  assert.deepEqual(
    plain.record,
    testKeyRecord({
      id: plain.record.id,
      name: "laptop",
      hint: `${plain.key.slice(0, 12)}…`,
      createdAt: START,
    }),
  );
  keys.createTeam("red", { rpm: 3 });
  advance(1);
  const full = keys.createKey({ name: "ci", admin: true, team: "red", policy: { tpm: 7 } });
  assert.equal(full.record.admin, true);
  assert.equal(full.record.team, "red");
  assert.deepEqual(full.record.policy, { tpm: 7 });
  assert.deepEqual(full.record.teamPolicy, { rpm: 3 }, "the team's policy comes with the key");
  assert.deepEqual(keys.getKey(full.record.id), full.record);
  assert.deepEqual(keys.listKeys(), [plain.record, full.record]);
  assert.equal(keys.getKey("nosuchkey0"), null);
  assert.equal(keys.countKeys(), 2);
});

Deno.test("createKey: a team that does not exist is refused, and nothing is written", () => {
  const { keys, generation } = registry();
  assert.throws(
    () => keys.createKey({ name: "x", team: "ghost" }),
    { message: 'team "ghost" does not exist; create it first with `teams create ghost`' },
  );
  assert.equal(keys.countKeys(), 0);
  assert.equal(generation(), 0, "a refused change bumps nothing");
});

Deno.test("checkKey: live, then unknown for a wrong secret, an unknown id or a malformed key", () => {
  const { keys } = registry();
  const { key, record } = keys.createKey("k");
  const other = keys.createKey("other");
  assert.equal(reason(keys.checkKey(key)), "live");
  const wrongSecret = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
  const otherSecretOnThisId = `gth_${record.id}_${other.key.split("_")[2]}`;
  const unknownId = `gth_${"a".repeat(10)}_${key.split("_")[2]}`;
  for (const bad of [wrongSecret, otherSecretOnThisId, unknownId, "", "gth_", `Bearer ${key}`]) {
    assert.deepEqual(keys.checkKey(bad), { reason: "unknown" }, bad.slice(0, 16));
  }
  // The same answers once the right key is remembered.
  assert.equal(reason(keys.checkKey(key)), "live");
  assert.deepEqual(keys.checkKey(wrongSecret), { reason: "unknown" });
});

Deno.test("checkKey: revoked with its time; revoking an unknown id is false", () => {
  const { keys, advance } = registry();
  const { key, record } = keys.createKey("k");
  keys.checkKey(key);
  const at = advance(5);
  assert.equal(keys.revokeKey(record.id), true);
  assert.deepEqual(keys.checkKey(key), { reason: "revoked", at });
  assert.equal(keys.revokeKey("nosuchkey0"), false);
});

Deno.test("checkKey: a key past its own expiry, or its team's, is expired", () => {
  const { keys, advance, now } = registry();
  keys.createTeam("red", {});
  const own = keys.createKey({ name: "own", policy: { expiresAt: now() + 100 } });
  const team = keys.createKey({ name: "team", team: "red" });
  assert.equal(reason(keys.checkKey(own.key)), "live");
  advance(100);
  assert.deepEqual(keys.checkKey(own.key), { reason: "expired", at: START + 100 });
  assert.equal(reason(keys.checkKey(team.key)), "live", "remembered");
  keys.updateTeam("red", { expiresAt: now() - 1 });
  assert.deepEqual(keys.checkKey(team.key), { reason: "expired", at: now() - 1 });
  keys.updateTeam("red", {});
  assert.equal(reason(keys.checkKey(team.key)), "live");
  keys.updateKey(own.record.id, { policy: {} });
  assert.equal(reason(keys.checkKey(own.key)), "live", "lifting the expiry revives the key");
});

Deno.test("rotateKey with grace: both secrets work until it ends, then the old one is rotated", () => {
  const { keys, advance } = registry();
  const first = keys.createKey({ name: "k", policy: { rpm: 1 } });
  keys.checkKey(first.key);
  const at = advance(10);
  const second = keys.rotateKey(first.record.id, 1000);
  assert.ok(second);
  assert.notEqual(second.key, first.key);
  assert.equal(second.record.id, first.record.id);
  assert.deepEqual(second.record.policy, { rpm: 1 }, "policies stay");
  assert.equal(second.record.rotatedAt, at);
  assert.equal(second.record.previousValidUntil, at + 1000);
  assert.equal(reason(keys.checkKey(second.key)), "live");
  advance(999);
  assert.equal(reason(keys.checkKey(first.key)), "live");
  advance(1);
  assert.deepEqual(keys.checkKey(first.key), { reason: "rotated", at });
  assert.equal(reason(keys.checkKey(second.key)), "live");
  // Rotating again forgets the first secret altogether.
  const third = keys.rotateKey(first.record.id, 1000);
  assert.ok(third);
  assert.deepEqual(keys.checkKey(first.key), { reason: "unknown" });
  assert.equal(reason(keys.checkKey(second.key)), "live");
});

Deno.test("rotateKey with no grace: the old secret stops at once", () => {
  const { keys, now } = registry();
  const first = keys.createKey("k");
  assert.equal(reason(keys.checkKey(first.key)), "live");
  const second = keys.rotateKey(first.record.id, 0);
  assert.ok(second);
  assert.deepEqual(keys.checkKey(first.key), { reason: "rotated", at: now() });
  assert.equal(reason(keys.checkKey(second.key)), "live");
});

Deno.test("rotateKey: null for an unknown or revoked key; a negative grace is an error", () => {
  const { keys, generation } = registry();
  const { record } = keys.createKey("k");
  assert.equal(keys.rotateKey("nosuchkey0", 0), null);
  assert.throws(() => keys.rotateKey(record.id, -1), RangeError);
  assert.throws(() => keys.rotateKey(record.id, Number.NaN), RangeError);
  keys.revokeKey(record.id);
  const before = generation();
  assert.equal(keys.rotateKey(record.id, 0), null);
  assert.equal(generation(), before);
});

Deno.test("updateKey: changes only the fields given; null clears the team", () => {
  const { keys } = registry();
  keys.createTeam("red", { rpm: 2 });
  const { record } = keys.createKey({ name: "k", team: "red", policy: { tpm: 1 } });
  const renamed = keys.updateKey(record.id, { name: "renamed" });
  assert.deepEqual(renamed, { ...record, name: "renamed" });
  const promoted = keys.updateKey(record.id, { admin: true, policy: { models: ["m"] } });
  assert.deepEqual(promoted, {
    ...record,
    name: "renamed",
    admin: true,
    policy: { models: ["m"] },
  });
  const alone = keys.updateKey(record.id, { team: null });
  assert.equal(alone?.team, null);
  assert.equal(alone?.teamPolicy, null);
  assert.throws(() => keys.updateKey(record.id, { team: "ghost" }), /teams create ghost/);
  assert.equal(keys.getKey(record.id)?.team, null, "the refused update changed nothing");
  assert.equal(keys.updateKey(record.id, { team: "red" })?.team, "red");
  assert.equal(keys.updateKey("nosuchkey0", { name: "x" }), null);
});

Deno.test("teams: create, list, get, update; malformed and taken ids are refused", () => {
  const { keys, advance } = registry();
  const red = keys.createTeam("red", { rpm: 1 });
  assert.deepEqual(red, { id: "red", policy: { rpm: 1 }, createdAt: START, updatedAt: START });
  keys.createTeam("blue.team-1", {});
  assert.deepEqual(keys.listTeams().map((t) => t.id), ["blue.team-1", "red"]);
  assert.deepEqual(keys.getTeam("red"), red);
  assert.equal(keys.getTeam("green"), null);
  assert.throws(() => keys.createTeam("red", {}), { message: 'team "red" already exists' });
  for (const bad of ["", "Red", "-red", "a b", "x".repeat(64)]) {
    assert.throws(() => keys.createTeam(bad, {}), /is not valid: use 1 to 63 characters/, bad);
  }
  const at = advance(7);
  assert.deepEqual(keys.updateTeam("red", { tpm: 4 }), {
    ...red,
    policy: { tpm: 4 },
    updatedAt: at,
  });
  assert.equal(keys.updateTeam("green", {}), null);
});

Deno.test("deleteTeam: refused while keys belong to it; revoked keys do not hold it", () => {
  const { keys } = registry();
  keys.createTeam("red", {});
  const a = keys.createKey({ name: "a", team: "red" });
  const b = keys.createKey({ name: "b", team: "red" });
  assert.throws(() => keys.deleteTeam("red"), {
    message: 'team "red" still has 2 keys; move or revoke them first',
  });
  keys.updateKey(a.record.id, { team: null });
  assert.throws(() => keys.deleteTeam("red"), /still has 1 key; move or revoke them first/);
  keys.revokeKey(b.record.id);
  assert.equal(keys.deleteTeam("red"), true);
  assert.equal(keys.getTeam("red"), null);
  assert.equal(keys.getKey(b.record.id)?.team, "red", "a revoked key keeps its team's id");
  assert.equal(keys.deleteTeam("red"), false);
});

Deno.test("every key and team change bumps the generation, seen from another connection", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "g.db");
  const db = openDatabase(path);
  const other = new DatabaseSync(path);
  try {
    const keys = new KeyRegistry(db, { now: Date.now });
    const read = () => other.prepare("SELECT value FROM meta").get()?.value;
    let expected = 0;
    const bumps = (change: () => unknown, by = 1) => {
      change();
      expected += by;
      assert.equal(read(), expected, change.toString());
    };
    bumps(() => keys.createTeam("red", {}));
    let id = "";
    bumps(() => (id = keys.createKey({ name: "k", team: "red" }).record.id));
    bumps(() => keys.updateKey(id, { name: "n" }));
    bumps(() => keys.rotateKey(id, 0));
    bumps(() => keys.updateTeam("red", { rpm: 1 }));
    bumps(() => keys.revokeKey(id));
    bumps(() => keys.deleteTeam("red"));
    // Nothing changed: no bump.
    bumps(() => keys.revokeKey("nosuchkey0"), 0);
    bumps(() => keys.updateKey("nosuchkey0", {}), 0);
    bumps(() => keys.updateTeam("red", {}), 0);
    bumps(() => keys.deleteTeam("red"), 0);
    bumps(() => assert.throws(() => keys.createTeam("Bad", {})), 0);
    bumps(() => keys.checkKey("gth_x"), 0);
  } finally {
    other.close();
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
