import assert from "node:assert/strict";
import { openPostgresStoreOn } from "./postgres_store.ts";
import {
  pgliteDatabase,
  serverDatabase,
  TEST_DATABASE_URL,
  type TestDatabase,
  usingDatabase,
} from "./pg_test_kit.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const noServer = TEST_DATABASE_URL === undefined;

/** Revokes through store A and measures how long store B keeps accepting the key. */
async function revokeSeenElsewhere(database: TestDatabase): Promise<void> {
  const a = await openPostgresStoreOn(database.client(), database.description);
  const b = await openPostgresStoreOn(database.client(), database.description);
  try {
    const { key, record } = await a.createKey("shared");
    assert.equal((await b.verifyKey(key))?.id, record.id, "B verifies (and remembers) the key");
    let heard = 0;
    a.onKeysChanged(() => heard++);
    const start = performance.now();
    assert.equal(await a.revokeKey(record.id), true);
    assert.equal(heard, 1);
    while (await b.verifyKey(key) !== null) {
      assert.ok(performance.now() - start < 1000, "B still accepts the revoked key after 1 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    const rotated = await a.createKey("second");
    assert.equal((await b.verifyKey(rotated.key))?.name, "second");
    await a.updateKey(rotated.record.id, { name: "renamed" });
    const renamedBy = performance.now() + 1000;
    while ((await b.verifyKey(rotated.key))?.name !== "renamed") {
      assert.ok(performance.now() < renamedBy, "B still sees the old record after 1 s");
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await a.close();
    await b.close();
  }
}

Deno.test({
  name: "postgres keys: a revoke through store A is refused by store B within 1 s (pglite)",
  ...loose,
  fn: () => usingDatabase(pgliteDatabase(), revokeSeenElsewhere),
});

Deno.test({
  name: noServer
    ? "postgres keys: cross-instance revoke on a real server (skipped: TEST_DATABASE_URL is not set)"
    : "postgres keys: a revoke through store A is refused by store B within 1 s (server)",
  ignore: noServer,
  ...loose,
  fn: () => usingDatabase(serverDatabase(TEST_DATABASE_URL ?? ""), revokeSeenElsewhere),
});

// PGlite is one session: advisory locks are re-entrant within a session, so two stores on it
// both "get" the lock. Only a real server can show the second instance refused.
Deno.test({
  name: noServer
    ? "postgres holdSoleInstanceLock (skipped: needs a real server, TEST_DATABASE_URL is not " +
      "set; PGlite is one session, where advisory locks are re-entrant)"
    : "postgres holdSoleInstanceLock: the first store gets it, a second is refused until close",
  ignore: noServer,
  ...loose,
  fn: () =>
    usingDatabase(serverDatabase(TEST_DATABASE_URL ?? ""), async (database) => {
      const a = await openPostgresStoreOn(database.client(), database.description);
      const b = await openPostgresStoreOn(database.client(), database.description);
      assert.equal(await a.holdSoleInstanceLock(), true);
      assert.equal(await b.holdSoleInstanceLock(), false);
      await a.close();
      assert.equal(await b.holdSoleInstanceLock(), true, "released with A's connections");
      await b.close();
    }),
});
