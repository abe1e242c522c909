import assert from "node:assert/strict";
import { usageRow } from "../store_suite.ts";
import type { UsageRecord } from "../store.ts";
import { LEDGER_COLUMNS, ledgerValues } from "../ledger_rows.ts";
import { claimAndInsertFromJson, insertFromJson, ledgerJson } from "./ledger_json.ts";
import { migrate } from "./migrations.ts";
import {
  pgliteDatabase,
  serverDatabase,
  TEST_DATABASE_URL,
  type TestDatabase,
  usingDatabase,
} from "./pg_test_kit.ts";

/** Rows with every kind of value a column can get, the awkward ones included. */
function awkwardRows(): UsageRecord[] {
  const plain = usageRow("k", 0.1 + 0.2, 1_700_000_000_123);
  return [
    plain,
    {
      ...usageRow("k2", 1.5e-7, 2),
      requestId: 'req "quoted" \\ back\nline\ttab é 中文 😀',
      model: "lone \ud800 surrogate and \udc00 another",
      servedModel: "paired 😀 surrogates",
      upstreamId: "chatcmpl-abc",
      attemptLog: [
        { deployment: "m@p", provider: "p", model: "m\ud800", status: 429, result: "ok", ms: 1.25 },
        { deployment: "m@q", provider: "q", model: "m", status: 200, result: "ok", ms: 0.5 },
      ],
      firstByteMs: 12.345678901234567,
      latencyMs: 1e21,
      cost: Number.MAX_VALUE,
      stream: true,
      inputTokens: 9_007_199_254_740_991,
      outputTokens: 0,
    },
    { ...usageRow("k3", Number.NaN, 3), latencyMs: Infinity, firstByteMs: -Infinity },
    { ...usageRow("k4", 5e-324, 4), attemptLog: [] },
    { ...usageRow("k5", -0, 5), latencyMs: -0 },
  ];
}

/** The statement the ledger wrote before: one bound value per column and row. */
function perValueInsert(rows: number): string {
  const width = LEDGER_COLUMNS.length;
  const tuples = Array.from(
    { length: rows },
    (_, r) => `(${LEDGER_COLUMNS.map((_, c) => `$${r * width + c + 1}`).join(", ")})`,
  );
  return `INSERT INTO usage (${LEDGER_COLUMNS.join(", ")}) VALUES ${tuples.join(", ")}`;
}

/** The stored rows as text, in insertion order. */
async function stored(database: TestDatabase): Promise<string[]> {
  const client = database.client();
  try {
    const rows = await client.query(
      `SELECT ${LEDGER_COLUMNS.map((c) => `${c}::text AS ${c}`).join(", ")} FROM usage ORDER BY id`,
    );
    return rows.map((row) => JSON.stringify(row));
  } finally {
    await client.close();
  }
}

async function writeBoth(database: TestDatabase, rows: UsageRecord[]) {
  const client = database.client();
  try {
    await migrate(client);
    await client.query(perValueInsert(rows.length), rows.flatMap((r) => ledgerValues(r, (b) => b)));
    const perValue = await stored(database);
    await client.query("DELETE FROM usage");
    await client.query(insertFromJson(1), [ledgerJson(rows)]);
    return { perValue, json: await stored(database) };
  } finally {
    await client.close();
  }
}

Deno.test("ledger JSON: stores exactly what one bound value per column stored (pglite)", async () => {
  await usingDatabase(pgliteDatabase(), async (database) => {
    // PGlite binds a NaN or an infinity differently from the driver: finite rows only here.
    const rows = awkwardRows().filter((r) => Number.isFinite(r.cost));
    const { perValue, json } = await writeBoth(database, rows);
    assert.equal(json.length, rows.length);
    assert.deepEqual(json, perValue);
  });
});

Deno.test({
  name: TEST_DATABASE_URL === undefined
    ? "ledger JSON on a server: skipped, TEST_DATABASE_URL is not set"
    : "ledger JSON: stores exactly what one bound value per column stored (postgres driver)",
  ignore: TEST_DATABASE_URL === undefined,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    await usingDatabase(serverDatabase(TEST_DATABASE_URL!), async (database) => {
      const rows = awkwardRows();
      const { perValue, json } = await writeBoth(database, rows);
      assert.equal(json.length, rows.length);
      assert.deepEqual(json, perValue);
    });
  },
});

Deno.test("ledger JSON: a lone surrogate becomes U+FFFD; other text is kept as it is", () => {
  const rows = awkwardRows();
  const parsed = JSON.parse(ledgerJson(rows)) as Record<string, unknown>[];
  assert.equal(parsed[1]?.model, "lone \ufffd surrogate and \ufffd another");
  assert.equal(parsed[1]?.request_id, rows[1]?.requestId);
  assert.equal(parsed[1]?.served_model, "paired 😀 surrogates");
  assert.equal(parsed[0]?.cost, 0.1 + 0.2);
  assert.equal(parsed[2]?.cost, "NaN");
  assert.equal(parsed[2]?.latency_ms, "Infinity");
  assert.equal(parsed[3]?.attempt_log, null, "an empty attempt log is NULL");
  assert.equal(parsed[1]?.attempt_log, JSON.stringify(rows[1]?.attemptLog));
});

Deno.test("ledger JSON: one statement claims a batch id and writes its rows only once", async () => {
  await usingDatabase(pgliteDatabase(), async (database) => {
    const client = database.client();
    try {
      await migrate(client);
      const rows = [usageRow("k", 1, 10), usageRow("k", 2, 11)];
      const claim = claimAndInsertFromJson();
      await client.query(claim, ["batch-1", 5, ledgerJson(rows)]);
      await client.query(claim, ["batch-1", 6, ledgerJson(rows)]);
      await client.query(claim, ["batch-2", 7, ledgerJson(rows.slice(1))]);
      const [count] = await client.query("SELECT COUNT(*)::int AS n, SUM(cost) AS c FROM usage");
      assert.deepEqual(count, { n: 3, c: 5 });
      const batches = await client.query("SELECT id, written_at FROM ledger_batches ORDER BY id");
      assert.deepEqual(batches, [{ id: "batch-1", written_at: 5 }, {
        id: "batch-2",
        written_at: 7,
      }]);
    } finally {
      await client.close();
    }
  });
});

Deno.test("ledger JSON: U+0000 is stored as U+FFFD instead of refusing the batch", async () => {
  await usingDatabase(pgliteDatabase(), async (database) => {
    const client = database.client();
    try {
      await migrate(client);
      const rows = [
        { ...usageRow("k", 1, 1), model: "x\u0000y", upstreamId: "\u0000" },
        usageRow("k", 2, 2),
      ];
      await client.query(claimAndInsertFromJson(), ["batch-nul", 1, ledgerJson(rows)]);
      const stored = await client.query("SELECT model, upstream_id FROM usage ORDER BY time");
      assert.deepEqual(stored, [
        { model: "x\ufffdy", upstream_id: "\ufffd" },
        { model: "m", upstream_id: null },
      ]);
    } finally {
      await client.close();
    }
  });
});
