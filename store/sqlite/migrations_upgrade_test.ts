/**
 * Databases written by older schemas, and by an older gatehouse itself, upgrade without losing a
 * key, a ledger row or a stored response.
 * @module
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { generateApiKey } from "../api_key.ts";
import type { Store, UsageRecord } from "../store.ts";
import { testKeyRecord } from "../test_records.ts";
import { MIGRATIONS, SCHEMA_VERSION, schemaVersion } from "./migrations.ts";
import { openDatabase } from "./open.ts";
import { openSqliteStore } from "./sqlite_store.ts";
import { UsageLedger } from "./usage.ts";

/** Every ledger row by id, as plain objects. */
const usageRows = (db: DatabaseSync) =>
  db.prepare("SELECT * FROM usage ORDER BY id").all().map((row) => ({ ...row }));

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

/** Writes `rows` into an older schema's ledger: as today's ledger writes them, in the columns
 * `db` has (schemas 2 and 3 lack `attempt_log`). */
function insertSchema2(db: DatabaseSync, rows: UsageRecord[]): void {
  const today = openDatabase(":memory:");
  const ledger = new UsageLedger(today);
  rows.forEach((row) => ledger.record(row));
  ledger.flush();
  const columns = db.prepare("PRAGMA table_info(usage)").all().map((c) => String(c.name))
    .filter((name) => name !== "id");
  const insert = db.prepare(
    `INSERT INTO usage (${columns}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  for (const row of today.prepare(`SELECT ${columns} FROM usage ORDER BY id`).all()) {
    insert.run(...columns.map((name) => row[name] ?? null));
  }
  today.close();
}

Deno.test("migrate: 4 adds attempt_log (NULL on old rows, which list with no attempts) and the time index", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "v3.db");
  try {
    const old = new DatabaseSync(path);
    for (const migration of MIGRATIONS.slice(0, 3)) old.exec(migration);
    old.exec("PRAGMA user_version = 3");
    const rows = Array.from({ length: 5 }, (_, i) => ledgerRow("key_a", i));
    insertSchema2(old, rows);
    const before = usageRows(old);
    old.close();

    const store = openSqliteStore(path);
    try {
      const listed = await store.listRequests({ start: 0, end: Date.UTC(2026, 0, 1) });
      assert.deepEqual(listed.map((r) => r.requestId), rows.map((r) => r.requestId).reverse());
      assert.deepEqual(listed.map((r) => r.attemptLog), rows.map(() => []));
      assert.equal(listed[4]!.attempts, 1);
    } finally {
      await store.close();
    }
    const db = new DatabaseSync(path);
    assert.equal(schemaVersion(db), SCHEMA_VERSION);
    assert.deepEqual(usageRows(db), before.map((row) => ({ ...row, attempt_log: null })));
    const indexed = db.prepare("PRAGMA index_info(usage_time)").all().map((row) => row.name);
    assert.deepEqual(indexed, ["time"]);
    db.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("migrate: a database written by schema 2 upgrades without losing keys or usage", async () => {
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
    const rows = Array.from(
      { length: 40 },
      (_, i) => ledgerRow(i % 3 === 0 ? revoked.id : live.id, i),
    );
    insertSchema2(old, rows);
    const window = { start: 0, end: Date.UTC(2026, 0, 1) };
    const reports = (store: Store) =>
      Promise.all([live.id, revoked.id].flatMap((keyId) => [
        store.usageReport({ ...window, keyId, groupBy: "model" }),
        store.usageReport({ ...window, keyId, groupBy: "day" }),
      ]));
    // What the same rows report from a ledger written by today's code.
    const fresh = openSqliteStore(":memory:");
    for (const row of rows) await fresh.recordUsage(row);
    const expected = await reports(fresh);
    await fresh.close();
    const rowsBefore = usageRows(old);
    old.close();

    const store = openSqliteStore(path, { now: () => 3000 });
    try {
      const checked = await store.checkKey(live.key);
      assert.ok("record" in checked, "the old secret still verifies");
      assert.deepEqual(
        checked.record,
        testKeyRecord({
          id: live.id,
          name: "laptop",
          hint: live.hint,
          createdAt: 1000,
          lastUsedAt: 1500,
        }),
      );
      assert.deepEqual(await store.checkKey(revoked.key), { reason: "revoked", at: 2500 });
      assert.deepEqual((await store.listKeys()).map((k) => k.id), [live.id, revoked.id]);
      assert.deepEqual(await store.listTeams(), []);
      assert.deepEqual(await reports(store), expected);
      const everyone = await store.usageReport({ ...window, groupBy: "team" });
      assert.equal(everyone.totals.requests, 40);
      assert.deepEqual(everyone.groups?.map((g) => g.key), [""]);
    } finally {
      await store.close();
    }
    const db = new DatabaseSync(path);
    assert.equal(schemaVersion(db), SCHEMA_VERSION);
    assert.deepEqual(usageRows(db), rowsBefore.map((row) => ({ ...row, attempt_log: null })));
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
      const before = new DatabaseSync(path);
      assert.equal(schemaVersion(before), 2);
      const ledger = usageRows(before);
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
        // The same reports, but for the outcomes added since (0 in each).
        const added = ["budget_cut", "shutdown"];
        const noNew = (k: string, v: unknown) => added.includes(k) && v === 0 ? undefined : v;
        const json = (value: unknown) => JSON.parse(JSON.stringify(value, noNew));
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
      assert.deepEqual(usageRows(upgraded), ledger.map((row) => ({ ...row, attempt_log: null })));
      upgraded.close();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
