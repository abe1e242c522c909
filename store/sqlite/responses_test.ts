import assert from "node:assert/strict";
import { openDatabase } from "./open.ts";
import { ResponseTable } from "./responses.ts";

Deno.test("responses: load returns the owner's response and null for any other key", () => {
  const table = new ResponseTable(openDatabase(":memory:"));
  const stored = { id: "resp_1", keyId: "key_a", conversation: '[{"role":"user"}]', createdAt: 7 };
  table.save(stored);
  assert.deepEqual(table.load("resp_1", "key_a"), stored);
  assert.equal(table.load("resp_1", "key_b"), null);
  assert.equal(table.load("resp_missing", "key_a"), null);
});

Deno.test("responses: the owner may re-save an id; another key may not take it over", () => {
  const table = new ResponseTable(openDatabase(":memory:"));
  table.save({ id: "resp_1", keyId: "key_a", conversation: "[1]", createdAt: 1 });
  table.save({ id: "resp_1", keyId: "key_a", conversation: "[1,2]", createdAt: 2 });
  assert.equal(table.load("resp_1", "key_a")?.conversation, "[1,2]");
  assert.throws(
    () => table.save({ id: "resp_1", keyId: "key_b", conversation: "[]", createdAt: 3 }),
    /already belongs to another key/,
  );
  assert.equal(table.load("resp_1", "key_a")?.conversation, "[1,2]");
  assert.equal(table.load("resp_1", "key_b"), null);
});
