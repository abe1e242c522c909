import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { openSqliteStore } from "./sqlite_store.ts";
import { storeSuite, usageRow } from "../store_suite.ts";

storeSuite("sqlite", ({ now }) => {
  const store = openSqliteStore(":memory:", { now });
  return Promise.resolve({ store, close: () => store.close() });
});

Deno.test("the database holds only the SHA-256 of a key, never the secret", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "keys.db");
  try {
    const store = openSqliteStore(path);
    const { key, record } = await store.createKey("raw");
    await store.verifyKey(key);
    await store.close();
    const secret = key.split("_")[2] ?? "";
    assert.equal(secret.length, 32);

    const db = new DatabaseSync(path);
    const rows = db.prepare("SELECT * FROM api_keys").all();
    db.close();
    assert.equal(rows.length, 1);
    const row = rows[0] ?? {};
    assert.equal(row.key_hash, createHash("sha256").update(key).digest("hex"));
    assert.equal(row.id, record.id);
    for (const value of Object.values(row)) {
      assert.ok(!String(value).includes(secret), "a column holds the secret");
    }
    // Nor anywhere in the file: the main DB after the WAL is checkpointed on close.
    const bytes = new TextDecoder("latin1").decode(await Deno.readFile(path));
    assert.ok(!bytes.includes(secret), "the database file holds the secret");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file database keeps keys, usage and responses across reopen", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "sub", "gatehouse.db");
  try {
    const first = openSqliteStore(path);
    const { key, record } = await first.createKey("persist");
    await first.recordUsage(usageRow(record.id, 0.5, 1000));
    await first.saveResponse({ id: "resp_1", keyId: record.id, conversation: "[]", createdAt: 1 });
    await first.close();
    await first.close();

    const second = openSqliteStore(path);
    try {
      assert.equal((await second.verifyKey(key))?.id, record.id);
      const report = await second.usageReport({ keyId: record.id, start: 0, end: 2000 });
      assert.equal(report.totals.requests, 1);
      assert.equal(report.totals.cost, 0.5);
      assert.equal((await second.loadResponse("resp_1", record.id))?.conversation, "[]");
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("calls after close reject instead of throwing synchronously", async () => {
  const store = openSqliteStore(":memory:");
  await store.close();
  const pending = store.listKeys();
  assert.ok(pending instanceof Promise);
  await assert.rejects(pending);
});
