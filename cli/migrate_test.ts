import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { withTempDb } from "./cli_test_kit.ts";
import { databaseOf, runMigrate } from "./migrate.ts";
import { SCHEMA_VERSION } from "../store/sqlite/migrations.ts";
import { serverDatabase, TEST_DATABASE_URL } from "../store/postgres/pg_test_kit.ts";

async function run(env: Record<string, string>) {
  let stdout = "";
  let stderr = "";
  const code = await runMigrate({
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { get: (name) => env[name] },
  });
  return { code, stdout, stderr };
}

Deno.test("migrate: DATABASE_URL wins over GATEHOUSE_DB, then the default file", () => {
  const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
  assert.equal(
    databaseOf(env({ DATABASE_URL: "postgres://a/b", GATEHOUSE_DB: "x.db" })),
    "postgres://a/b",
  );
  assert.equal(databaseOf(env({ GATEHOUSE_DB: "x.db" })), "x.db");
  assert.equal(databaseOf(env({})), "./data/gatehouse.db");
});

Deno.test("migrate: a new SQLite file goes from 0 to the current version, then nothing to do", async () => {
  await withTempDb(async (db) => {
    const first = await run({ GATEHOUSE_DB: db });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`migrated from version 0 to ${SCHEMA_VERSION}`));
    const second = await run({ GATEHOUSE_DB: db });
    assert.match(second.stdout, new RegExp(`already at version ${SCHEMA_VERSION}, nothing to do`));
    const file = new DatabaseSync(db);
    assert.ok(file.prepare("SELECT COUNT(*) AS n FROM api_keys").get());
    file.close();
  });
});

Deno.test("migrate: an unreachable Postgres exits 1 with a message and no password", async () => {
  const result = await run({ DATABASE_URL: "postgres://u:hunter2@127.0.0.1:1/gh" });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: migrating postgres:\/\/127\.0\.0\.1:1\/gh failed: /);
  assert.ok(!result.stderr.includes("hunter2"));
});

Deno.test({
  name: TEST_DATABASE_URL === undefined
    ? "migrate: a real Postgres database (skipped: TEST_DATABASE_URL is not set)"
    : "migrate: a real Postgres database goes to the current version, then nothing to do",
  ignore: TEST_DATABASE_URL === undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const database = await serverDatabase(TEST_DATABASE_URL ?? "");
    try {
      const url = new URL(TEST_DATABASE_URL ?? "");
      url.pathname = new URL(database.description).pathname;
      const first = await run({ DATABASE_URL: url.href });
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /migrated from version 0 to 1/);
      assert.match((await run({ DATABASE_URL: url.href })).stdout, /nothing to do/);
    } finally {
      await database.drop();
    }
  },
});
