import assert from "node:assert/strict";
import type { KeyRecord } from "../store.ts";
import { openDatabase } from "./open.ts";
import { KeyTable } from "./keys.ts";
import { testKeyRecord } from "../test_records.ts";

const record = (id: string, createdAt: number, extra: Partial<KeyRecord> = {}): KeyRecord =>
  testKeyRecord({ id, name: `name-${id}`, hint: `gth_${id.slice(0, 8)}…`, createdAt, ...extra });

Deno.test("KeyTable: insert refuses a taken id; find returns the hashes beside the record", () => {
  const table = new KeyTable(openDatabase(":memory:"));
  assert.equal(table.insert(record("aaaaaaaaaa", 2), "h1"), true);
  assert.equal(table.insert(record("aaaaaaaaaa", 3), "h2"), false);
  assert.deepEqual(table.find("aaaaaaaaaa"), {
    record: record("aaaaaaaaaa", 2),
    keyHash: "h1",
    previousHash: null,
  });
  assert.equal(table.find("bbbbbbbbbb"), null);
});

Deno.test("KeyTable: admin, team and policy are stored; the team's policy is read with the key", () => {
  const db = openDatabase(":memory:");
  db.exec(`INSERT INTO teams VALUES ('red', '{"rpm":5}', 0, 0)`);
  const table = new KeyTable(db);
  const admin = record("aaaaaaaaaa", 1, { admin: true, team: "red", policy: { tpm: 9 } });
  table.insert(admin, "h");
  table.insert(record("bbbbbbbbbb", 2, { team: "gone" }), "h");
  assert.deepEqual(table.find("aaaaaaaaaa")?.record, { ...admin, teamPolicy: { rpm: 5 } });
  assert.equal(table.find("bbbbbbbbbb")?.record.teamPolicy, null, "a team with no row");
  assert.deepEqual(table.list().map((k) => k.teamPolicy), [{ rpm: 5 }, null]);
});

Deno.test("KeyTable: list is oldest first; touch and revoke update the row", () => {
  const table = new KeyTable(openDatabase(":memory:"));
  table.insert(record("bbbbbbbbbb", 5), "h");
  table.insert(record("aaaaaaaaaa", 9), "h");
  assert.deepEqual(table.list().map((k) => k.id), ["bbbbbbbbbb", "aaaaaaaaaa"]);
  table.touch("aaaaaaaaaa", 11);
  assert.equal(table.revoke("aaaaaaaaaa", 12), true);
  assert.equal(table.revoke("cccccccccc", 12), false);
  const found = table.find("aaaaaaaaaa")?.record;
  assert.equal(found?.lastUsedAt, 11);
  assert.equal(found?.revokedAt, 12);
  assert.equal(table.count(), 2);
});

Deno.test("KeyTable: update writes name, admin, team and policy", () => {
  const db = openDatabase(":memory:");
  db.exec("INSERT INTO teams VALUES ('red', '{}', 0, 0)");
  const table = new KeyTable(db);
  table.insert(record("aaaaaaaaaa", 1, { team: "red" }), "h");
  const fields = { name: "renamed", admin: true, team: null, policy: { models: ["m"] } };
  assert.equal(table.update("aaaaaaaaaa", fields), true);
  assert.deepEqual(table.find("aaaaaaaaaa")?.record, record("aaaaaaaaaa", 1, fields));
  assert.equal(table.update("cccccccccc", fields), false);
});

Deno.test("KeyTable: rotate keeps the old hash as the previous one; never for a revoked key", () => {
  const table = new KeyTable(openDatabase(":memory:"));
  table.insert(record("aaaaaaaaaa", 1), "h1");
  assert.equal(table.rotate("aaaaaaaaaa", "h2", "gth_new…", 10, 20), true);
  const rotated = table.find("aaaaaaaaaa");
  assert.equal(rotated?.keyHash, "h2");
  assert.equal(rotated?.previousHash, "h1");
  assert.equal(rotated?.record.hint, "gth_new…");
  assert.equal(rotated?.record.rotatedAt, 10);
  assert.equal(rotated?.record.previousValidUntil, 20);
  assert.equal(table.rotate("aaaaaaaaaa", "h3", "gth_new…", 30, 30), true);
  assert.equal(table.find("aaaaaaaaaa")?.previousHash, "h2", "only the last secret is kept");
  table.revoke("aaaaaaaaaa", 40);
  assert.equal(table.rotate("aaaaaaaaaa", "h4", "gth_new…", 50, 50), false);
  assert.equal(table.find("aaaaaaaaaa")?.keyHash, "h3");
  assert.equal(table.rotate("cccccccccc", "h", "x", 1, 1), false);
});
