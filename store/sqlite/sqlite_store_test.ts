import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { createHash } from "node:crypto";
import type { UsageRecord } from "../store.ts";
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
      admin: false,
      team: null,
      policy: {},
      teamPolicy: null,
      rotatedAt: null,
      previousValidUntil: null,
    });
    assert.deepEqual(await store.getKey(a.record.id), a.record);
    assert.equal(await store.getKey("nosuchkey0"), null);
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

function row(keyId: string, cost: number, time: number): UsageRecord {
  return {
    requestId: `req_${time}`,
    keyId,
    model: "m",
    servedModel: "m",
    upstream: "u",
    upstreamId: null,
    route: "/v1/messages",
    status: 200,
    outcome: "ok",
    attempts: 1,
    inputTokens: 1,
    outputTokens: 1,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    images: 0,
    cost,
    latencyMs: 1,
    firstByteMs: null,
    stream: false,
    time,
  };
}

Deno.test("checkKey and verifyKey: the reason for a matched secret, null from verifyKey", async () => {
  const clock = fakeClock();
  const store = openSqliteStore(":memory:", clock);
  try {
    const { key, record } = await store.createKey("k");
    assert.equal((await store.verifyKey(key))?.id, record.id);
    const rotated = await store.rotateKey(record.id, 0);
    assert.ok(rotated);
    assert.deepEqual(await store.checkKey(key), { reason: "rotated", at: clock.now() });
    assert.equal(await store.verifyKey(key), null);
    assert.equal((await store.verifyKey(rotated.key))?.id, record.id);
    assert.deepEqual(await store.checkKey("nonsense"), { reason: "unknown" });
    assert.equal(await store.rotateKey("nosuchkey0", 0), null);
  } finally {
    await store.close();
  }
});

Deno.test("teams through the store: keys join them, updates reach the keys, delete refuses members", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const team = await store.createTeam("eng", { budgetUsd: 5, budgetPeriod: "day" });
    assert.deepEqual(await store.listTeams(), [team]);
    assert.deepEqual(await store.getTeam("eng"), team);
    await assert.rejects(store.createKey({ name: "x", team: "ops" }), /teams create ops/);
    const { key, record } = await store.createKey({ name: "k", team: "eng" });
    assert.deepEqual(record.teamPolicy, team.policy);
    assert.equal((await store.updateTeam("eng", { rpm: 9 }))?.policy.rpm, 9);
    assert.deepEqual((await store.verifyKey(key))?.teamPolicy, { rpm: 9 });
    await assert.rejects(store.deleteTeam("eng"), /still has 1 key; move or revoke them first/);
    assert.equal((await store.updateKey(record.id, { team: null, admin: true }))?.admin, true);
    assert.equal(await store.updateKey("nosuchkey0", {}), null);
    assert.equal(await store.deleteTeam("eng"), true);
    assert.equal(await store.getTeam("eng"), null);
    assert.equal(await store.updateTeam("eng", {}), null);
  } finally {
    await store.close();
  }
});

Deno.test("spend and reports through the store: queued rows count; team and key scopes", async () => {
  const store = openSqliteStore(":memory:");
  try {
    await store.createTeam("eng", {});
    const a = (await store.createKey({ name: "a", team: "eng" })).record.id;
    const b = (await store.createKey({ name: "b", team: "eng" })).record.id;
    const c = (await store.createKey("c")).record.id;
    await store.recordUsage(row(a, 1.5, 100));
    await store.recordUsage(row(b, 2, 200));
    await store.recordUsage(row(c, 4, 300));
    await store.recordUsage(row(a, 8, 50));
    assert.equal(await store.spend({ keyId: a, start: 100 }), 1.5, "still queued");
    assert.equal(await store.spend({ team: "eng", start: 100 }), 3.5);
    assert.equal(await store.spend({ team: "eng", start: 0 }), 11.5);
    const report = await store.usageReport({ start: 0, end: 1000, groupBy: "team" });
    assert.deepEqual(report.groups?.map((g) => [g.key, g.cost]), [["", 4], ["eng", 11.5]]);
    const byKey = await store.usageReport({ team: "eng", start: 0, end: 1000, groupBy: "key" });
    assert.deepEqual(byKey.groups?.map((g) => g.key), [a, b].sort());
    assert.equal(await store.spend({ keyId: a, start: 100 }), 1.5, "now written");
  } finally {
    await store.close();
  }
});
