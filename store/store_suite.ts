/**
 * The behaviour every `Store` must have, as tests registered once per implementation:
 * `sqlite/sqlite_store_test.ts` and `postgres/postgres_store_test.ts` call {@link storeSuite}.
 * @module
 */
import assert from "node:assert/strict";
import { LAST_USED_RESOLUTION_MS } from "./key_rules.ts";
import { type Outcome, OUTCOMES, type Store, type UsageRecord } from "./store.ts";
import { testKeyRecord } from "./test_records.ts";
import { registerSeriesTests } from "./series_suite.ts";

/** What a test opens: a fresh, empty store, and how to dispose of it. */
export interface OpenedStore {
  store: Store;
  /** Closes the store and removes whatever the test created (a database). */
  close: () => Promise<void>;
}

/** Opens a fresh store with the given clock. */
export type OpenStore = (options: { now?: () => number }) => Promise<OpenedStore>;

/** Options for {@link storeSuite}. */
export interface SuiteOptions {
  /** Skip every test (say why in the suite's name). */
  ignore?: boolean;
  /** Deno's op and resource sanitizers (off for drivers that keep sockets between tests). */
  sanitize?: boolean;
}

/** A fake clock starting at 2025-01-01. */
export function fakeClock(start = Date.UTC(2025, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A ledger row for `keyId` costing `cost` at `time`. */
export function usageRow(keyId: string, cost: number, time: number): UsageRecord {
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

/** Registers the shared store tests under `name`. */
export function storeSuite(name: string, open: OpenStore, options: SuiteOptions = {}): void {
  const sanitize = options.sanitize ?? true;
  const test = (
    title: string,
    fn: (store: Store, clock: ReturnType<typeof fakeClock>) => Promise<void>,
  ) =>
    Deno.test({
      name: `${name}: ${title}`,
      ignore: options.ignore,
      sanitizeOps: sanitize,
      sanitizeResources: sanitize,
      fn: async () => {
        const clock = fakeClock();
        const opened = await open({ now: clock.now });
        try {
          await fn(opened.store, clock);
        } finally {
          await opened.close();
        }
      },
    });
  registerKeyTests(test);
  registerLedgerTests(test);
  registerSeriesTests((title, fn) => test(title, (store) => fn(store)));
}

type Register = (
  title: string,
  fn: (store: Store, clock: ReturnType<typeof fakeClock>) => Promise<void>,
) => void;

function registerKeyTests(test: Register): void {
  test("createKey/listKeys/countKeys: records without secrets", async (store, clock) => {
    const a = await store.createKey("laptop");
    clock.advance(1);
    const b = await store.createKey("ci");
    assert.notEqual(a.key, b.key);
    assert.deepEqual(
      a.record,
      testKeyRecord({
        id: a.record.id,
        name: "laptop",
        hint: `${a.key.slice(0, 12)}…`,
        createdAt: clock.now() - 1,
      }),
    );
    assert.deepEqual(await store.getKey(a.record.id), a.record);
    assert.equal(await store.getKey("nosuchkey0"), null);
    const listed = await store.listKeys();
    assert.deepEqual(listed, [a.record, b.record]);
    assert.ok(!JSON.stringify(listed).includes(a.key.slice(15)));
    assert.equal(await store.countKeys(), 2);
  });

  test("verifyKey: the right key verifies; wrong, unknown, malformed keys do not", async (store) => {
    const { key, record } = await store.createKey("k");
    const other = await store.createKey("other");
    const verified = await store.verifyKey(key);
    assert.equal(verified?.id, record.id);
    assert.equal(verified?.name, "k");
    const lastChar = key.endsWith("A") ? "B" : "A";
    const wrongSecret = key.slice(0, -1) + lastChar;
    const otherSecretOnThisId = `gth_${record.id}_${other.key.split("_")[2]}`;
    const unknownId = `gth_${"a".repeat(10)}_${key.split("_")[2]}`;
    for (const bad of [wrongSecret, otherSecretOnThisId, unknownId, "", "gth_", `Bearer ${key}`]) {
      assert.equal(await store.verifyKey(bad), null, `verified ${bad.slice(0, 16)}`);
    }
  });

  test("revokeKey: revoked keys never verify; unknown ids report false", async (store, clock) => {
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
  });

  test("verifyKey: last_used_at is written at most once a minute per key", async (store, clock) => {
    const { key } = await store.createKey("hot");
    const first = clock.now();
    assert.equal((await store.verifyKey(key))?.lastUsedAt, first);
    clock.advance(LAST_USED_RESOLUTION_MS - 1);
    assert.equal((await store.verifyKey(key))?.lastUsedAt, first);
    assert.equal((await store.listKeys())[0]?.lastUsedAt, first);
    const later = clock.advance(1);
    assert.equal((await store.verifyKey(key))?.lastUsedAt, later);
    assert.equal((await store.listKeys())[0]?.lastUsedAt, later);
  });

  test("checkKey and verifyKey: the reason for a matched secret", async (store, clock) => {
    const { key, record } = await store.createKey("k");
    assert.equal((await store.verifyKey(key))?.id, record.id);
    const rotated = await store.rotateKey(record.id, 0);
    assert.ok(rotated);
    assert.deepEqual(await store.checkKey(key), { reason: "rotated", at: clock.now() });
    assert.equal(await store.verifyKey(key), null);
    assert.equal((await store.verifyKey(rotated.key))?.id, record.id);
    assert.deepEqual(await store.checkKey("nonsense"), { reason: "unknown" });
    assert.equal(await store.rotateKey("nosuchkey0", 0), null);
    await assert.rejects(store.rotateKey(record.id, -1), /rotation grace must be 0 or more/);
    await store.revokeKey(record.id);
    assert.deepEqual(await store.checkKey(rotated.key), { reason: "revoked", at: clock.now() });
    assert.equal(await store.rotateKey(record.id, 0), null, "a revoked key is not rotated");
  });

  test(
    "rotation grace: the old secret works until its grace ends; expiry is judged",
    async (store, clock) => {
      const { key, record } = await store.createKey({
        name: "k",
        policy: { expiresAt: clock.now() + 500 },
      });
      const rotated = await store.rotateKey(record.id, 100);
      assert.ok(rotated);
      assert.equal((await store.verifyKey(key))?.id, record.id, "within the grace");
      clock.advance(100);
      assert.equal((await store.checkKey(key) as { reason: string }).reason, "rotated");
      clock.advance(400);
      assert.deepEqual(await store.checkKey(rotated.key), { reason: "expired", at: clock.now() });
    },
  );

  test("teams: keys join them, updates reach the keys, delete refuses members", async (store) => {
    const team = await store.createTeam("eng", { budgetUsd: 5, budgetPeriod: "day" });
    assert.deepEqual(await store.listTeams(), [team]);
    assert.deepEqual(await store.getTeam("eng"), team);
    await assert.rejects(store.createTeam("eng", {}), { message: 'team "eng" already exists' });
    await assert.rejects(store.createTeam("Bad Id", {}), /team id "Bad Id" is not valid/);
    await assert.rejects(store.createKey({ name: "x", team: "ops" }), {
      message: 'team "ops" does not exist; create it first with `teams create ops`',
    });
    const { key, record } = await store.createKey({ name: "k", team: "eng" });
    assert.deepEqual(record.teamPolicy, team.policy);
    assert.equal((await store.updateTeam("eng", { rpm: 9 }))?.policy.rpm, 9);
    assert.deepEqual((await store.verifyKey(key))?.teamPolicy, { rpm: 9 });
    await assert.rejects(store.deleteTeam("eng"), {
      message: 'team "eng" still has 1 key; move or revoke them first',
    });
    assert.equal((await store.updateKey(record.id, { team: null, admin: true }))?.admin, true);
    assert.equal(await store.updateKey("nosuchkey0", {}), null);
    assert.equal(await store.deleteTeam("eng"), true);
    assert.equal(await store.deleteTeam("eng"), false);
    assert.equal(await store.getTeam("eng"), null);
    assert.equal(await store.updateTeam("eng", {}), null);
    assert.deepEqual((await store.listTeams()).map((t) => t.id), []);
  });

  test("onKeysChanged hears each committed change; forgetVerifiedKeys re-reads", async (store) => {
    let heard = 0;
    const stop = store.onKeysChanged(() => heard++);
    const { key, record } = await store.createKey("k");
    await store.createTeam("eng", {});
    await store.updateKey(record.id, { team: "eng" });
    assert.equal(heard, 3);
    await assert.rejects(store.createKey({ name: "x", team: "ghost" }));
    assert.equal(await store.revokeKey("nosuchkey0"), false);
    assert.equal(heard, 3, "refused and empty changes are not announced");
    assert.equal((await store.verifyKey(key))?.team, "eng");
    store.forgetVerifiedKeys();
    assert.equal((await store.verifyKey(key))?.team, "eng", "read again after forgetting");
    stop();
    await store.revokeKey(record.id);
    assert.equal(heard, 3, "unsubscribed");
    assert.equal(await store.verifyKey(key), null);
  });

  test("kind and describe name the store without secrets", (store) => {
    assert.ok(store.kind === "sqlite" || store.kind === "postgres");
    assert.ok(!/:[^/@:]*@/.test(store.describe()), "no user:password@ in the description");
    return Promise.resolve();
  });
}

function registerLedgerTests(test: Register): void {
  test("spend and reports: queued rows count; team and key scopes", async (store) => {
    await store.createTeam("eng", {});
    const a = (await store.createKey({ name: "a", team: "eng" })).record.id;
    const b = (await store.createKey({ name: "b", team: "eng" })).record.id;
    const c = (await store.createKey("c")).record.id;
    await store.recordUsage(usageRow(a, 1.5, 100));
    await store.recordUsage(usageRow(b, 2, 200));
    await store.recordUsage(usageRow(c, 4, 300));
    await store.recordUsage(usageRow(a, 8, 50));
    assert.equal(await store.spend({ keyId: a, start: 100 }), 1.5);
    assert.equal(await store.spend({ team: "eng", start: 100 }), 3.5);
    assert.equal(await store.spend({ team: "eng", start: 0 }), 11.5);
    const report = await store.usageReport({ start: 0, end: 1000, groupBy: "team" });
    assert.deepEqual(report.groups?.map((g) => [g.key, g.cost]), [["", 4], ["eng", 11.5]]);
    const byKey = await store.usageReport({ team: "eng", start: 0, end: 1000, groupBy: "key" });
    assert.deepEqual(byKey.groups?.map((g) => g.key), [a, b].sort());
    assert.equal(await store.spend({ keyId: a, start: 100 }), 1.5, "now written");
  });

  test("usageReport: totals, every outcome, groups by model and UTC day", async (store) => {
    const day = 86_400_000;
    const jan1 = Date.UTC(2025, 0, 1);
    const rows: UsageRecord[] = [
      { ...usageRow("k1", 0.25, jan1 + 5), model: "b", inputTokens: 10, outputTokens: 3 },
      { ...usageRow("k1", 0.5, jan1 + day - 1), model: "a", outcome: "timeout", images: 2 },
      { ...usageRow("k2", 1, jan1 + day), model: "a", cachedTokens: 4, reasoningTokens: 5 },
      { ...usageRow("k2", 9, jan1 + 3 * day), model: "a" },
    ];
    for (const r of rows) await store.recordUsage(r);
    const report = await store.usageReport({ start: jan1, end: jan1 + 2 * day, groupBy: "day" });
    const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
    assert.deepEqual(report.totals, {
      requests: 3,
      inputTokens: 12,
      outputTokens: 5,
      cachedTokens: 4,
      cacheWriteTokens: 0,
      reasoningTokens: 5,
      images: 2,
      cost: 1.75,
      outcomes: { ...outcomes, ok: 2, timeout: 1 },
    });
    assert.deepEqual(report.groups?.map((g) => [g.key, g.requests]), [
      ["2025-01-01", 2],
      ["2025-01-02", 1],
    ]);
    const byModel = await store.usageReport({
      keyId: "k1",
      start: 0,
      end: jan1 + 9 * day,
      groupBy: "model",
    });
    assert.deepEqual(byModel.groups?.map((g) => [g.key, g.cost]), [["a", 0.5], ["b", 0.25]]);
    const empty = await store.usageReport({ start: 0, end: 1 });
    assert.equal(empty.totals.requests, 0);
    assert.deepEqual(empty.totals.outcomes, outcomes);
  });

  test("listRequests: newest first, filters, limit, attempt logs", async (store) => {
    await store.createTeam("eng", {});
    const a = (await store.createKey({ name: "a", team: "eng" })).record.id;
    const attemptLog = [
      {
        deployment: "x@p",
        provider: "p",
        model: "x",
        status: 529,
        result: "retryable_status",
        ms: 3,
      },
      { deployment: "y@p", provider: "p", model: "y", status: 200, result: "ok", ms: 4 },
    ] as const;
    await store.recordUsage({
      ...usageRow(a, 1, 10),
      requestId: "r1",
      model: "x",
      servedModel: "y",
      attemptLog: [...attemptLog],
      stream: true,
      firstByteMs: 2.5,
    });
    await store.recordUsage({
      ...usageRow("other", 1, 20),
      requestId: "r2",
      outcome: "rejected",
      attempts: 0,
    });
    await store.recordUsage({ ...usageRow(a, 1, 30), requestId: "r3" });
    const all = await store.listRequests({ start: 0, end: 100 });
    assert.deepEqual(all.map((r) => r.requestId), ["r3", "r2", "r1"]);
    const first = all[2];
    assert.deepEqual(first?.attemptLog, attemptLog);
    assert.equal(first?.stream, true);
    assert.equal(first?.firstByteMs, 2.5);
    assert.deepEqual(all[0]?.attemptLog, []);
    const ids = async (q: Partial<Parameters<Store["listRequests"]>[0]>) =>
      (await store.listRequests({ start: 0, end: 100, ...q })).map((r) => r.requestId);
    assert.deepEqual(await ids({ team: "eng" }), ["r3", "r1"]);
    assert.deepEqual(await ids({ keyId: a, limit: 1 }), ["r3"]);
    assert.deepEqual(await ids({ model: "y" }), ["r1"]);
    assert.deepEqual(await ids({ outcome: "rejected" }), ["r2"]);
    assert.deepEqual(await ids({ requestId: "r3" }), ["r3"]);
    assert.deepEqual(await ids({ start: 15, end: 30 }), ["r2"]);
  });

  test("responses: the owner loads and re-saves; another key may not take an id", async (store) => {
    const stored = {
      id: "resp_1",
      keyId: "key_a",
      conversation: '[{"role":"user"}]',
      createdAt: 7,
    };
    await store.saveResponse(stored);
    assert.deepEqual(await store.loadResponse("resp_1", "key_a"), stored);
    assert.equal(await store.loadResponse("resp_1", "key_b"), null);
    assert.equal(await store.loadResponse("resp_missing", "key_a"), null);
    await store.saveResponse({ ...stored, conversation: "[1,2]", createdAt: 8 });
    assert.equal((await store.loadResponse("resp_1", "key_a"))?.conversation, "[1,2]");
    await assert.rejects(
      store.saveResponse({ ...stored, keyId: "key_b" }),
      /already belongs to another key/,
    );
  });
}
