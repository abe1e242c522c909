import assert from "node:assert/strict";
import { openDatabase } from "./open.ts";
import { TEAM_ID_PATTERN, TeamTable } from "./teams.ts";

Deno.test("TeamTable: insert refuses a taken id; find, list, update, delete", () => {
  const db = openDatabase(":memory:");
  const teams = new TeamTable(db);
  const red = { id: "red", policy: { rpm: 5 }, createdAt: 1, updatedAt: 1 };
  assert.equal(teams.insert(red), true);
  assert.equal(teams.insert({ ...red, policy: {} }), false);
  assert.equal(teams.insert({ id: "blue", policy: {}, createdAt: 2, updatedAt: 2 }), true);
  assert.deepEqual(teams.find("red"), red);
  assert.equal(teams.find("green"), null);
  assert.deepEqual(teams.list().map((t) => t.id), ["blue", "red"]);
  assert.equal(teams.update("red", { tpm: 9 }, 7), true);
  assert.deepEqual(teams.find("red"), {
    id: "red",
    policy: { tpm: 9 },
    createdAt: 1,
    updatedAt: 7,
  });
  assert.equal(teams.update("green", {}, 7), false);
  assert.equal(teams.delete("blue"), true);
  assert.equal(teams.delete("blue"), false);
  db.close();
});

Deno.test("TeamTable: liveMembers counts the team's keys that are not revoked", () => {
  const db = openDatabase(":memory:");
  const teams = new TeamTable(db);
  teams.insert({ id: "red", policy: {}, createdAt: 1, updatedAt: 1 });
  const add = db.prepare(
    "INSERT INTO api_keys (id, name, key_hash, hint, created_at, team, revoked_at) " +
      "VALUES (?, 'n', 'h', 'x', 0, ?, ?)",
  );
  add.run("a", "red", null);
  add.run("b", "red", null);
  add.run("c", "red", 5);
  add.run("d", null, null);
  assert.equal(teams.liveMembers("red"), 2);
  assert.equal(teams.liveMembers("blue"), 0);
  db.close();
});

Deno.test("TEAM_ID_PATTERN: lowercase, digits, _ . -, 1 to 63 characters, no leading symbol", () => {
  for (const good of ["a", "0", "eng", "ml-research", "team_1.prod", "a".repeat(63)]) {
    assert.ok(TEAM_ID_PATTERN.test(good), good);
  }
  for (const bad of ["", "-a", ".a", "_a", "Eng", "a b", "a/b", "a".repeat(64), "é"]) {
    assert.ok(!TEAM_ID_PATTERN.test(bad), bad);
  }
});
