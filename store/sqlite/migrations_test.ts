import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { migrate, MIGRATIONS, SCHEMA_VERSION, schemaVersion } from "./migrations.ts";

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
  assert.deepEqual(names, [
    "api_keys",
    "api_keys_team",
    "meta",
    "responses",
    "teams",
    "usage",
    "usage_key_time",
    "usage_time",
  ]);
  const indexed = db.prepare("PRAGMA index_info(usage_key_time)").all().map((row) => row.name);
  assert.deepEqual(indexed, ["key_id", "time"]);
  const byTime = db.prepare("PRAGMA index_info(usage_time)").all().map((row) => row.name);
  assert.deepEqual(byTime, ["time"]);
  const byTeam = db.prepare("PRAGMA index_info(api_keys_team)").all().map((row) => row.name);
  assert.deepEqual(byTeam, ["team"]);
  assert.deepEqual({ ...db.prepare("SELECT * FROM meta").get() }, {
    name: "keys_generation",
    value: 0,
  });
  db.close();
});

Deno.test("migrate: ledger rows written before the lifecycle columns get the outcome their status implies", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(MIGRATIONS[0]!);
  db.exec("PRAGMA user_version = 1");
  const insert = db.prepare(
    "INSERT INTO usage (key_id, model, upstream, route, status, input_tokens, output_tokens, " +
      "cached_tokens, cache_write_tokens, reasoning_tokens, images, cost, latency_ms, stream, " +
      "aborted, time) VALUES ('k', 'm', 'u', '/v1/messages', ?, 0, 0, 0, 0, 0, 0, 0, 1, 0, ?, ?)",
  );
  const old: Array<[number, number]> = [[200, 0], [200, 1], [429, 0], [500, 0], [504, 0]];
  old.forEach(([status, aborted], time) => insert.run(status, aborted, time));
  migrate(db);
  const rows = db.prepare(
    "SELECT outcome, served_model, request_id, attempts, first_byte_ms FROM usage ORDER BY time",
  ).all().map((row) => ({ ...row }));
  assert.deepEqual(rows.map((row) => row.outcome), [
    "ok",
    "client_disconnect",
    "upstream_error",
    "internal_error",
    "timeout",
  ]);
  assert.deepEqual(rows[0], {
    outcome: "ok",
    served_model: "m",
    request_id: "",
    attempts: 1,
    first_byte_ms: null,
  });
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
