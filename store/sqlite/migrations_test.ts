import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { generateApiKey } from "../api_key.ts";
import type { UsageRecord } from "../store.ts";
import { migrate, MIGRATIONS, SCHEMA_VERSION, schemaVersion } from "./migrations.ts";
import { UsageLedger } from "./usage.ts";
import { UsageReports } from "./usage_report.ts";
import { openSqliteStore } from "./sqlite_store.ts";

Deno.test("migrate: creates the tables and index once; rerunning changes nothing", () => {
  const db = new DatabaseSync(":memory:");
  assert.equal(schemaVersion(db), 0);
  migrate(db);
  migrate(db);
  assert.equal(schemaVersion(db), SCHEMA_VERSION);
  const names = db.prepare(
    "SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') " +
      "AND name NOT LIKE 'sqlite_%' ORDER BY name",
  ).all().map((row) => row.name);
  assert.deepEqual(names, [
    "api_keys",
    "api_keys_team",
    "meta",
    "responses",
    "teams",
    "usage",
    "usage_key_time",
  ]);
  const indexed = db.prepare("PRAGMA index_info(usage_key_time)").all().map((row) => row.name);
  assert.deepEqual(indexed, ["key_id", "time"]);
  const byTeam = db.prepare("PRAGMA index_info(api_keys_team)").all().map((row) => row.name);
  assert.deepEqual(byTeam, ["team"]);
  assert.deepEqual({ ...db.prepare("SELECT * FROM meta").get() }, {
    name: "keys_generation",
    value: 0,
  });
  db.close();
});

Deno.test("migrate: ledger rows written before the lifecycle columns get the outcome their status implies", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(MIGRATIONS[0]!);
  db.exec("PRAGMA user_version = 1");
  const insert = db.prepare(
    "INSERT INTO usage (key_id, model, upstream, route, status, input_tokens, output_tokens, " +
      "cached_tokens, cache_write_tokens, reasoning_tokens, images, cost, latency_ms, stream, " +
      "aborted, time) VALUES ('k', 'm', 'u', '/v1/messages', ?, 0, 0, 0, 0, 0, 0, 0, 1, 0, ?, ?)",
  );
  const old: Array<[number, number]> = [[200, 0], [200, 1], [429, 0], [500, 0], [504, 0]];
  old.forEach(([status, aborted], time) => insert.run(status, aborted, time));
  migrate(db);
  const rows = db.prepare(
    "SELECT outcome, served_model, request_id, attempts, first_byte_ms FROM usage ORDER BY time",
  ).all().map((row) => ({ ...row }));
  assert.deepEqual(rows.map((row) => row.outcome), [
    "ok",
    "client_disconnect",
    "upstream_error",
    "internal_error",
    "timeout",
  ]);
  assert.deepEqual(rows[0], {
    outcome: "ok",
    served_model: "m",
    request_id: "",
    attempts: 1,
    first_byte_ms: null,
  });
  db.close();
});

Deno.test("migrate: refuses a database from a newer gatehouse", () => {
  const db = new DatabaseSync(":memory:");
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  assert.throws(() => migrate(db), /newer than this gatehouse build supports/);
  db.close();
});

Deno.test("migrate: a failing migration rolls back and leaves the version unchanged", () => {
  const db = new DatabaseSync(":memory:");
  db.exec("CREATE TABLE api_keys (x)");
  assert.throws(() => migrate(db), /already exists/);
  assert.equal(schemaVersion(db), 0);
  assert.equal(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'usage'").get(), undefined);
  db.close();
});

function ledgerRow(keyId: string, i: number): UsageRecord {
  return {
    requestId: `req_${keyId}_${i}`,
    keyId,
    model: i % 2 === 0 ? "gpt-x" : "claude-y",
    servedModel: "gpt-x",
    upstream: "openai",
    upstreamId: null,
    route: "/v1/chat/completions",
    status: i % 5 === 0 ? 502 : 200,
    outcome: i % 5 === 0 ? "upstream_error" : "ok",
    attempts: 1,
    inputTokens: 10 * i,
    outputTokens: i,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    images: 0,
    cost: i / 8,
    latencyMs: 5,
    firstByteMs: null,
    stream: false,
    time: Date.UTC(2025, 0, 1) + i * 3_600_000,
  };
}

Deno.test("migrate: a database written by schema 2 upgrades to 3 without losing keys or usage", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "old.db");
  try {
    // Schema 2, written the way the gatehouse before governance wrote it.
    const old = new DatabaseSync(path);
    old.exec("PRAGMA journal_mode = WAL");
    old.exec(MIGRATIONS[0]!);
    old.exec(MIGRATIONS[1]!);
    old.exec("PRAGMA user_version = 2");
    const live = generateApiKey();
    const revoked = generateApiKey();
    const insertKey = old.prepare(
      `INSERT INTO api_keys (id, name, key_hash, hint, created_at, revoked_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, NULL, NULL) ON CONFLICT(id) DO NOTHING`,
    );
    insertKey.run(live.id, "laptop", live.hash, live.hint, 1000);
    insertKey.run(revoked.id, "old", revoked.hash, revoked.hint, 2000);
    old.prepare("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(1500, live.id);
    old.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").run(2500, revoked.id);
    const ledger = new UsageLedger(old);
    for (let i = 0; i < 40; i++) ledger.record(ledgerRow(i % 3 === 0 ? revoked.id : live.id, i));
    ledger.flush();
    const window = { start: 0, end: Date.UTC(2026, 0, 1) };
    const before = new UsageReports(old, ledger);
    const reports = (report: UsageReports) =>
      [live.id, revoked.id].flatMap((keyId) => [
        report.report({ ...window, keyId, groupBy: "model" }),
        report.report({ ...window, keyId, groupBy: "day" }),
      ]);
    const expected = reports(before);
    const rowsBefore = old.prepare("SELECT * FROM usage ORDER BY id").all();
    old.close();

    const store = openSqliteStore(path, { now: () => 3000 });
    try {
      const checked = await store.checkKey(live.key);
      assert.ok("record" in checked, "the old secret still verifies");
      assert.deepEqual(checked.record, {
        id: live.id,
        name: "laptop",
        hint: live.hint,
        createdAt: 1000,
        revokedAt: null,
        lastUsedAt: 1500,
        admin: false,
        team: null,
        policy: {},
        teamPolicy: null,
        rotatedAt: null,
        previousValidUntil: null,
      });
      assert.deepEqual(await store.checkKey(revoked.key), { reason: "revoked", at: 2500 });
      assert.deepEqual((await store.listKeys()).map((k) => k.id), [live.id, revoked.id]);
      assert.deepEqual(await store.listTeams(), []);
      const after = [live.id, revoked.id].flatMap((keyId) => [
        store.usageReport({ ...window, keyId, groupBy: "model" }),
        store.usageReport({ ...window, keyId, groupBy: "day" }),
      ]);
      assert.deepEqual(await Promise.all(after), expected);
      const everyone = await store.usageReport({ ...window, groupBy: "team" });
      assert.equal(everyone.totals.requests, 40);
      assert.deepEqual(everyone.groups?.map((g) => g.key), [""]);
    } finally {
      await store.close();
    }
    const db = new DatabaseSync(path);
    assert.equal(schemaVersion(db), 3);
    assert.deepEqual(db.prepare("SELECT * FROM usage ORDER BY id").all(), rowsBefore);
    const columns = db.prepare(
      "SELECT admin, team, policy, rotated_at, prev_key_hash, prev_valid_until FROM api_keys",
    ).all().map((row) => ({ ...row }));
    assert.deepEqual(
      columns,
      [0, 1].map(() => ({
        admin: 0,
        team: null,
        policy: "{}",
        rotated_at: null,
        prev_key_hash: null,
        prev_valid_until: null,
      })),
    );
    db.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
