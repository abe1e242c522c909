import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { LAST_USED_RESOLUTION_MS, openSqliteStore } from "./sqlite_store.ts";

function fakeClock(start = Date.UTC(2025, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

Deno.test("createKey/listKeys/countKeys: records without secrets", async () => {
  const clock = fakeClock();
  const store = openSqliteStore(":memory:", clock);
  try {
    const a = await store.createKey("laptop");
    clock.advance(1);
    const b = await store.createKey("ci");
    assert.notEqual(a.key, b.key);
    assert.deepEqual(a.record, {
      id: a.record.id,
      name: "laptop",
      hint: `${a.key.slice(0, 12)}…`,
      createdAt: clock.now() - 1,
      revokedAt: null,
      lastUsedAt: null,
    });
    const listed = await store.listKeys();
    assert.deepEqual(listed, [a.record, b.record]);
    assert.ok(!JSON.stringify(listed).includes(a.key.slice(15)));
    assert.equal(await store.countKeys(), 2);
  } finally {
    await store.close();
  }
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

Deno.test("verifyKey: the right key verifies; wrong, unknown, malformed keys do not", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const { key, record } = await store.createKey("k");
    const other = await store.createKey("other");
    const verified = await store.verifyKey(key);
    assert.equal(verified?.id, record.id);
    assert.equal(verified?.name, "k");

    const lastChar = key.endsWith("A") ? "B" : "A";
    const wrongSecret = key.slice(0, -1) + lastChar;
    const otherSecretOnThisId = `gth_${record.id}_${other.key.split("_")[2]}`;
    const unknownId = `gth_${"a".repeat(10)}_${key.split("_")[2]}`;
    for (
      const bad of [wrongSecret, otherSecretOnThisId, unknownId, "", "gth_", `Bearer ${key}`]
    ) {
      assert.equal(await store.verifyKey(bad), null, `verified ${bad.slice(0, 16)}`);
    }
  } finally {
    await store.close();
  }
});

Deno.test("revokeKey: revoked keys never verify; unknown ids report false", async () => {
  const clock = fakeClock();
  const store = openSqliteStore(":memory:", clock);
  try {
    const { key, record } = await store.createKey("gone");
    assert.ok(await store.verifyKey(key));
    const revokedAt = clock.advance(10);
    assert.equal(await store.revokeKey(record.id), true);
    assert.equal(await store.verifyKey(key), null);
    clock.advance(10);
    assert.equal(await store.revokeKey(record.id), true, "revoking twice still finds the key");
    const [listed] = await store.listKeys();
    assert.equal(listed?.revokedAt, revokedAt, "the first revocation time is kept");
    assert.equal(await store.revokeKey("nosuchkey0"), false);
    assert.equal(await store.countKeys(), 1, "revoked keys still count");
  } finally {
    await store.close();
  }
});

Deno.test("verifyKey: last_used_at is written at most once a minute per key", async () => {
  const clock = fakeClock();
  const store = openSqliteStore(":memory:", clock);
  try {
    const { key } = await store.createKey("hot");
    const first = clock.now();
    assert.equal((await store.verifyKey(key))?.lastUsedAt, first);
    clock.advance(LAST_USED_RESOLUTION_MS - 1);
    assert.equal((await store.verifyKey(key))?.lastUsedAt, first);
    assert.equal((await store.listKeys())[0]?.lastUsedAt, first);
    const later = clock.advance(1);
    assert.equal((await store.verifyKey(key))?.lastUsedAt, later);
    assert.equal((await store.listKeys())[0]?.lastUsedAt, later);
  } finally {
    await store.close();
  }
});

Deno.test("a file database keeps keys, usage and responses across reopen", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "sub", "gatehouse.db");
  try {
    const first = openSqliteStore(path);
    const { key, record } = await first.createKey("persist");
    await first.recordUsage({
      requestId: "req_persist",
      keyId: record.id,
      model: "m",
      servedModel: "m",
      upstream: "u",
      upstreamId: "msg_1",
      route: "/v1/messages",
      status: 200,
      outcome: "ok",
      attempts: 1,
      inputTokens: 3,
      outputTokens: 4,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      images: 0,
      cost: 0.5,
      latencyMs: 12,
      firstByteMs: 3,
      stream: false,
      time: 1000,
    });
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
