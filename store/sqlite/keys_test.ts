import assert from "node:assert/strict";
import { openDatabase } from "./open.ts";
import { KeyTable } from "./keys.ts";

const record = (id: string, createdAt: number) => ({
  id,
  name: `name-${id}`,
  hint: `gth_${id.slice(0, 8)}…`,
  createdAt,
  revokedAt: null,
  lastUsedAt: null,
});

Deno.test("KeyTable: insert refuses a taken id; find returns the hash beside the record", () => {
  const table = new KeyTable(openDatabase(":memory:"));
  assert.equal(table.insert(record("aaaaaaaaaa", 2), "h1"), true);
  assert.equal(table.insert(record("aaaaaaaaaa", 3), "h2"), false);
  assert.deepEqual(table.find("aaaaaaaaaa"), { record: record("aaaaaaaaaa", 2), keyHash: "h1" });
  assert.equal(table.find("bbbbbbbbbb"), null);
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
