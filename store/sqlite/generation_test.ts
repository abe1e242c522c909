import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "./open.ts";
import { KeysGeneration } from "./generation.ts";

Deno.test("KeysGeneration: starts at 0; a bump is seen by another connection once committed", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "g.db");
  const one = openDatabase(path);
  const two = openDatabase(path);
  try {
    const mine = new KeysGeneration(one);
    const theirs = new KeysGeneration(two);
    assert.equal(mine.read(), 0);
    one.exec("BEGIN IMMEDIATE");
    assert.equal(mine.bump(), 1);
    assert.equal(theirs.read(), 0, "not yet committed");
    one.exec("COMMIT");
    assert.equal(theirs.read(), 1);
    one.exec("BEGIN IMMEDIATE");
    mine.bump();
    one.exec("ROLLBACK");
    assert.equal(theirs.read(), 1, "a rolled-back bump never happened");
  } finally {
    one.close();
    two.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("KeysGeneration: a missing row is a schema mismatch", () => {
  const db = openDatabase(":memory:");
  db.exec("DELETE FROM meta");
  const generation = new KeysGeneration(db);
  assert.throws(() => generation.read(), /keys_generation is gone/);
  assert.throws(() => generation.bump(), /keys_generation is gone/);
  db.close();
});
