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

/** The last commit before governance, whose gatehouse wrote schema 2, and its store's files; null
 * when this checkout cannot read them (no git history or no --allow-run): the test is skipped. */
const SCHEMA_2_COMMIT = "42d93d0";
const ROOT = new URL("../../", import.meta.url).pathname;
const git = (...args: string[]) =>
  new Deno.Command("git", { args, cwd: ROOT, stderr: "null" }).outputSync();
const OLD_FILES = (() => {
  try {
    const listed = git("ls-tree", "-r", "--name-only", SCHEMA_2_COMMIT, "store/");
    const files = new TextDecoder().decode(listed.stdout).split("\n");
    return listed.success ? files.filter((f) => /(?<!_test)\.ts$/.test(f)) : null;
  } catch {
    return null;
  }
})();
const RESPONSE = { id: "resp_1", conversation: "[1]", createdAt: 2100 };
const OLD_WINDOW = { start: 0, end: Date.UTC(2026, 0, 1) };

/** Run by the old store: two keys (one used, one revoked), ledger rows, a response; prints the
 * keys and the old store's own reports. */
const OLD_WRITER = `
import { openSqliteStore } from "./store/sqlite/sqlite_store.ts";
const [path, rowsFile] = Deno.args;
let clock = 1000;
const store = openSqliteStore(path, { now: () => clock });
const live = await store.createKey("laptop");
const gone = await store.createKey("old");
clock = 70_000; // a minute after creation, so the use is written
if ((await store.verifyKey(live.key)) === null) throw new Error("the key did not verify");
clock = 80_000;
await store.revokeKey(gone.record.id);
const ids = { live: live.record.id, gone: gone.record.id };
for (const row of JSON.parse(await Deno.readTextFile(rowsFile))) {
  await store.recordUsage({ ...row, keyId: ids[row.keyId] });
}
await store.saveResponse({ ...${JSON.stringify(RESPONSE)}, keyId: ids.live });
const reports = await Promise.all([ids.live, ids.gone].flatMap((keyId) => ["model", "day"].map(
  (groupBy) => store.usageReport({ ...${JSON.stringify(OLD_WINDOW)}, keyId, groupBy }))));
await store.close();
console.log(JSON.stringify({ live: live.key, gone: gone.key, reports }));
`;

Deno.test({
  name: `migrate: a gatehouse.db as the code at ${SCHEMA_2_COMMIT} wrote it loses nothing`,
  ignore: OLD_FILES === null,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      for (const file of OLD_FILES!) {
        await Deno.mkdir(join(dir, file, ".."), { recursive: true });
        await Deno.writeFile(join(dir, file), git("show", `${SCHEMA_2_COMMIT}:${file}`).stdout);
      }
      await Deno.writeTextFile(join(dir, "writer.ts"), OLD_WRITER);
      const rows = Array.from({ length: 40 }, (_, i) => ledgerRow(i % 3 ? "live" : "gone", i));
      await Deno.writeTextFile(join(dir, "rows.json"), JSON.stringify(rows));
      const path = join(dir, "data", "gatehouse.db");
      const args = ["run", "--allow-read", "--allow-write", "writer.ts", path, "rows.json"];
      const written = await new Deno.Command(Deno.execPath(), { args, cwd: dir }).output();
      assert.equal(written.code, 0, new TextDecoder().decode(written.stderr));
      const old = JSON.parse(new TextDecoder().decode(written.stdout));
      const rowsBefore = (db: DatabaseSync) => db.prepare("SELECT * FROM usage ORDER BY id").all();
      const before = new DatabaseSync(path);
      assert.equal(schemaVersion(before), 2);
      const ledger = rowsBefore(before);
      before.close();

      const store = openSqliteStore(path, { now: () => 90_000 });
      try {
        const [live, gone] = [old.live.slice(4, 14), old.gone.slice(4, 14)];
        const checked = await store.checkKey(old.live);
        assert.ok("record" in checked, "the old secret still verifies");
        const { id, name, createdAt, lastUsedAt, policy } = checked.record;
        const seen = [id, name, createdAt, lastUsedAt, policy];
        assert.deepEqual(seen, [live, "laptop", 1000, 70_000, {}]);
        assert.deepEqual(await store.checkKey(old.gone), { reason: "revoked", at: 80_000 });
        // The same reports, but for the outcome added since (budget_cut, 0 in each).
        const noCut = (k: string, v: unknown) => k === "budget_cut" && v === 0 ? undefined : v;
        const json = (value: unknown) => JSON.parse(JSON.stringify(value, noCut));
        const report = (keyId: string, groupBy: "model" | "day") =>
          store.usageReport({ ...OLD_WINDOW, keyId, groupBy });
        const after = [live, gone].flatMap((k) => [report(k, "model"), report(k, "day")]);
        assert.deepEqual(json(await Promise.all(after)), old.reports);
        assert.equal(old.reports[0].totals.requests + old.reports[2].totals.requests, 40);
        assert.deepEqual(await store.loadResponse("resp_1", live), { ...RESPONSE, keyId: live });
      } finally {
        await store.close();
      }
      const upgraded = new DatabaseSync(path);
      assert.equal(schemaVersion(upgraded), SCHEMA_VERSION);
      assert.deepEqual(rowsBefore(upgraded), ledger);
      upgraded.close();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
