/**
 * The ledger against a real Postgres server whose connections are killed under load (what a
 * server restart does to a client): every row still lands exactly once. Runs with
 * `TEST_DATABASE_URL`; without it, reported as skipped.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { usageRow } from "../store_suite.ts";
import { openPostgresStoreOn } from "./postgres_store.ts";
import { serverDatabase, TEST_DATABASE_URL } from "./pg_test_kit.ts";

const ROWS = 2_000;

Deno.test({
  name: TEST_DATABASE_URL === undefined
    ? "postgres ledger, server connections killed: skipped, TEST_DATABASE_URL is not set"
    : "postgres ledger: rows written while the server kills every connection all land, once",
  ignore: TEST_DATABASE_URL === undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const database = await serverDatabase(TEST_DATABASE_URL!);
    const name = database.description.split("/").pop()!;
    const logs: string[] = [];
    const store = await openPostgresStoreOn(database.client(), database.description, {
      log: (level, message) => logs.push(`${level}: ${message}`),
      ledger: { retryMs: 20, retryMaxMs: 100, writeTimeoutMs: 1_000 },
    });
    const admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      let kills = 0;
      for (let i = 0; i < ROWS; i++) {
        await store.recordUsage(usageRow("k", 0.001, 1_000 + i));
        if (i % 250 === 125) {
          // What a restart does to the store's pool: every connection ends under it.
          const killed = await admin.unsafe(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
            [name],
          );
          kills += killed.length;
        }
        if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      }
      assert.ok(kills > 0, "connections were killed");
      await store.close();
      const reader = database.client();
      const [row] = await reader.query(
        "SELECT COUNT(*)::int AS n, COUNT(DISTINCT time)::int AS distinct_rows FROM usage",
      ).finally(() => reader.close());
      assert.deepEqual(row, { n: ROWS, distinct_rows: ROWS }, logs.join("\n"));
    } finally {
      await admin.end();
      await database.drop();
    }
  },
});
