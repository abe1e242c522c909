import assert from "node:assert/strict";
import { storeSuite } from "../store_suite.ts";
import { openPostgresStoreOn } from "./postgres_store.ts";
import {
  pgliteDatabase,
  serverDatabase,
  TEST_DATABASE_URL,
  type TestDatabase,
} from "./pg_test_kit.ts";

function suiteOn(name: string, make: () => Promise<TestDatabase>, ignore = false): void {
  storeSuite(name, async ({ now }) => {
    const database = await make();
    const store = await openPostgresStoreOn(database.client(), database.description, { now });
    return {
      store,
      close: async () => {
        await store.close();
        await database.drop();
      },
    };
  }, { ignore, sanitize: false });
}

suiteOn("postgres on pglite", () => Promise.resolve(pgliteDatabase()));
const serverUrl = TEST_DATABASE_URL;
if (serverUrl !== undefined) {
  suiteOn("postgres server", () => serverDatabase(serverUrl));
} else {
  Deno.test({
    name: "postgres server: skipped, TEST_DATABASE_URL is not set (the suite ran on pglite only)",
    ignore: true,
    fn: () => {},
  });
}

Deno.test({
  name: "postgres store: describe() names host, port and database only",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const database = pgliteDatabase();
    const store = await openPostgresStoreOn(database.client(), "postgres://db:5432/gh");
    try {
      assert.equal(store.kind, "postgres");
      assert.equal(store.describe(), "postgres://db:5432/gh");
    } finally {
      await store.close();
      await database.drop();
    }
  },
});
