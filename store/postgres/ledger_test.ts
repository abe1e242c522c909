import assert from "node:assert/strict";
import { usageRow } from "../store_suite.ts";
import type { SqlClient } from "./sql_client.ts";
import { openPostgresStoreOn, type PostgresStoreOptions } from "./postgres_store.ts";
import { pgliteDatabase } from "./pg_test_kit.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };

/** `client`, whose ledger writes — transactions, and statements that claim a batch (a batch
 * written by one statement) — fail while `down` is true, never answer while `hang` is true, and
 * commit but answer with an error (the answer lost to a cut connection) while `loseAnswer` is
 * true. Other statements (reads) go through. */
function flaky(client: SqlClient) {
  const state = { down: false, hang: false, loseAnswer: false, attempts: 0 };
  const write = <T>(run: () => Promise<T>): Promise<T> => {
    if (state.down || state.hang) {
      state.attempts++;
      if (state.hang) return new Promise(() => {});
      return Promise.reject(new Error("connection refused (simulated outage)"));
    }
    if (state.loseAnswer) {
      return run().then(() => {
        throw new Error("write CONNECTION_CLOSED (simulated: committed, answer lost)");
      });
    }
    return run();
  };
  const wrapped: SqlClient = {
    ...client,
    query(text, params) {
      if (!text.includes("ledger_batches")) return client.query(text, params);
      return write(() => client.query(text, params));
    },
    transaction: (fn) => write(() => client.transaction(fn)),
  };
  return { client: wrapped, state };
}

/** A store on a fresh PGlite database over a {@link flaky} client, logging into `logs`. */
async function flakyStore(ledger?: PostgresStoreOptions["ledger"]) {
  const database = pgliteDatabase();
  const { client, state } = flaky(database.client());
  const logs: string[] = [];
  const store = await openPostgresStoreOn(client, "test", {
    log: (level, message) => logs.push(`${level}: ${message}`),
    ledger,
  });
  return { database, state, logs, store };
}

async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!await check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

Deno.test({
  name: "postgres ledger: an outage keeps rows queued (warned once), then writes them all once",
  ...loose,
  fn: async () => {
    const { database, state, logs, store } = await flakyStore({ retryMs: 20, retryMaxMs: 40 });
    const raw = database.client();
    const count = async () => (await raw.query("SELECT COUNT(*)::int AS n FROM usage"))[0]?.n;
    try {
      state.down = true;
      for (let i = 0; i < 10; i++) await store.recordUsage(usageRow("k", 1, 100 + i));
      await until(() => state.attempts >= 3);
      assert.equal(await count(), 0);
      assert.equal(logs.filter((l) => l.startsWith("warn")).length, 1, logs.join("\n"));
      assert.match(logs[0] ?? "", /10 row\(s\) queued in memory, retrying/);
      assert.equal(await store.spend({ keyId: "k", start: 0 }), 10, "queued rows are spent");
      const listed = await store.listRequests({ start: 0, end: 1000 });
      assert.deepEqual(listed.map((r) => r.time), Array.from({ length: 10 }, (_, i) => 109 - i));
      for (let i = 10; i < 15; i++) await store.recordUsage(usageRow("k", 1, 100 + i));
      state.down = false;
      await until(async () => await count() === 15);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(await count(), 15, "none lost, none duplicated");
      assert.equal(await store.spend({ keyId: "k", start: 0 }), 15);
      assert.equal(logs.filter((l) => l.startsWith("info")).length, 1, logs.join("\n"));
      assert.match(logs.at(-1) ?? "", /^info: ledger: Postgres writes succeed again; 15/);
    } finally {
      await store.close();
      await database.drop();
    }
  },
});

Deno.test({
  name: "postgres ledger: over the bound the oldest rows are dropped with an error log",
  ...loose,
  fn: async () => {
    const { database, state, logs, store } = await flakyStore({
      maxQueued: 5,
      retryMs: 20,
      retryMaxMs: 20,
    });
    try {
      state.down = true;
      for (let i = 0; i < 8; i++) await store.recordUsage(usageRow("k", 1, i));
      await until(() => logs.some((l) => l.startsWith("error")));
      assert.match(
        logs.find((l) => l.startsWith("error")) ?? "",
        /ledger: 3 queued usage row\(s\) dropped \(oldest first\).*at most 5 rows/,
      );
      state.down = false;
      const rows = await store.listRequests({ start: 0, end: 100 });
      assert.deepEqual(rows.map((r) => r.time), [7, 6, 5, 4, 3], "the newest five are kept");
    } finally {
      await store.close();
      await database.drop();
    }
  },
});

Deno.test({
  name: "postgres ledger: close logs the rows it could not write",
  ...loose,
  fn: async () => {
    const { database, state, logs, store } = await flakyStore();
    state.down = true;
    await store.recordUsage(usageRow("k", 1, 1));
    await store.recordUsage(usageRow("k", 1, 2));
    await store.close();
    await database.drop();
    assert.ok(
      logs.some((l) => /^error: ledger: 2 usage row\(s\) could not be written/.test(l)),
      logs.join("\n"),
    );
  },
});

Deno.test({
  name: "postgres ledger: a write that never answers times out and is retried; a batch whose " +
    "commit answer was lost is not written twice",
  ...loose,
  fn: async () => {
    const { database, state, store } = await flakyStore({
      retryMs: 20,
      retryMaxMs: 40,
      writeTimeoutMs: 100,
    });
    const raw = database.client();
    const count = async () => (await raw.query("SELECT COUNT(*)::int AS n FROM usage"))[0]?.n;
    try {
      state.hang = true;
      for (let i = 0; i < 5; i++) await store.recordUsage(usageRow("k", 1, 100 + i));
      await until(() => state.attempts >= 2);
      state.hang = false;
      await until(async () => await count() === 5);
      state.loseAnswer = true;
      for (let i = 5; i < 12; i++) await store.recordUsage(usageRow("k", 1, 100 + i));
      await until(async () => await count() === 12);
      state.loseAnswer = false;
      await new Promise((r) => setTimeout(r, 150));
      assert.equal(await count(), 12, "the retried batch was found written");
      assert.equal(await store.spend({ keyId: "k", start: 0 }), 12);
    } finally {
      await store.close();
      await raw.close();
      await database.drop();
    }
  },
});

Deno.test({
  name: "postgres ledger: a batch larger than one statement's rows is written whole, once",
  ...loose,
  fn: async () => {
    const { database, state, store } = await flakyStore({ retryMs: 20, retryMaxMs: 40 });
    const raw = database.client();
    const count = async () => (await raw.query("SELECT COUNT(*)::int AS n FROM usage"))[0]?.n;
    try {
      await store.recordUsage(usageRow("k", 1, 1));
      await until(async () => await count() === 1);
      state.down = true;
      for (let i = 0; i < 2_500; i++) await store.recordUsage(usageRow("k", 1, 10 + i));
      await until(() => state.attempts >= 1);
      state.down = false;
      await until(async () => await count() === 2_501);
      assert.equal(await store.spend({ keyId: "k", start: 0 }), 2_501);
    } finally {
      await store.close();
      await database.drop();
    }
  },
});
