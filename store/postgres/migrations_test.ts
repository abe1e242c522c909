import assert from "node:assert/strict";
import { migrate, SCHEMA_VERSION } from "./migrations.ts";
import { openPostgresStoreOn } from "./postgres_store.ts";
import { pgliteDatabase, serverDatabase, TEST_DATABASE_URL, usingDatabase } from "./pg_test_kit.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "postgres migrations: applied twice, the second run is a no-op",
  ...loose,
  fn: () =>
    usingDatabase(pgliteDatabase(), async (database) => {
      const client = database.client();
      assert.deepEqual(await migrate(client), { from: 0, to: SCHEMA_VERSION });
      assert.deepEqual(await migrate(client), { from: SCHEMA_VERSION, to: SCHEMA_VERSION });
      const rows = await client.query("SELECT version FROM schema_migrations ORDER BY version");
      assert.deepEqual(rows.map((r) => r.version), [1]);
    }),
});

Deno.test({
  name: "postgres migrations: a newer schema is refused",
  ...loose,
  fn: () =>
    usingDatabase(pgliteDatabase(), async (database) => {
      const client = database.client();
      await migrate(client);
      await client.query("INSERT INTO schema_migrations VALUES (99, 0)");
      await assert.rejects(migrate(client), /schema version 99 is newer than this gatehouse/);
    }),
});

Deno.test({
  name: TEST_DATABASE_URL === undefined
    ? "postgres migrations: 4 instances at once (skipped: TEST_DATABASE_URL is not set)"
    : "postgres migrations: 4 stores opening one fresh database at once; one migration run",
  ignore: TEST_DATABASE_URL === undefined,
  ...loose,
  fn: () =>
    usingDatabase(serverDatabase(TEST_DATABASE_URL ?? ""), async (database) => {
      const stores = await Promise.all(
        [1, 2, 3, 4].map(() => openPostgresStoreOn(database.client(), database.description)),
      );
      const check = database.client();
      const rows = await check.query("SELECT version FROM schema_migrations");
      await check.close();
      assert.equal(rows.length, SCHEMA_VERSION, "each version applied once");
      await stores[0]?.createKey("a");
      assert.equal(await stores[3]?.countKeys(), 1);
      await Promise.all(stores.map((s) => s.close()));
    }),
});
