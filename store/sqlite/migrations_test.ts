import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { migrate, SCHEMA_VERSION, schemaVersion } from "./migrations.ts";

Deno.test("migrate: creates the tables and index once; rerunning changes nothing", () => {
  const db = new DatabaseSync(":memory:");
  assert.equal(schemaVersion(db), 0);
  migrate(db);
  migrate(db);
  assert.equal(schemaVersion(db), SCHEMA_VERSION);
  const names = db.prepare(
    "SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') " +
      "AND name NOT LIKE 'sqlite_%' ORDER BY name",
  ).all().map((row) => row.name);
  assert.deepEqual(names, ["api_keys", "responses", "usage", "usage_key_time"]);
  const indexed = db.prepare("PRAGMA index_info(usage_key_time)").all().map((row) => row.name);
  assert.deepEqual(indexed, ["key_id", "time"]);
  db.close();
});

Deno.test("migrate: refuses a database from a newer gatehouse", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  assert.throws(() => migrate(db), /newer than this gatehouse build supports/);
  db.close();
});

Deno.test("migrate: a failing migration rolls back and leaves the version unchanged", () => {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE api_keys (x)");
  assert.throws(() => migrate(db), /already exists/);
  assert.equal(schemaVersion(db), 0);
  assert.equal(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'usage'").get(), undefined);
  db.close();
});
