import assert from "node:assert/strict";
import { join } from "node:path";
import { openSqliteStore } from "./sqlite/sqlite_store.ts";
import { KEYS_CHECK_INTERVAL_MS, VerifiedKeys } from "./verified_keys.ts";
import type { KeyCheck, KeyRecord } from "./store.ts";
import { testKeyRecord } from "./test_records.ts";

const RECORD: KeyRecord = testKeyRecord({ id: "abc", name: "n", hint: "gth_abc…", createdAt: 0 });

/** A memory over a settable generation and clock, counting generation reads. */
function memory(checkIntervalMs = 250) {
  const state = { generation: 0, clock: 0, reads: 0 };
  const keys = new VerifiedKeys({
    generation: () => {
      state.reads++;
      return state.generation;
    },
    checkIntervalMs,
    clock: () => state.clock,
  });
  return { keys, state };
}

Deno.test("VerifiedKeys answers only for the exact key that verified", () => {
  const { keys } = memory();
  assert.equal(keys.get("abc", "gth_abc_secret"), null);
  keys.set("abc", "gth_abc_secret", RECORD, "current");
  assert.deepEqual(keys.get("abc", "gth_abc_secret"), { record: RECORD, matched: "current" });
  assert.equal(keys.get("abc", "gth_abc_secreT"), null);
  assert.equal(keys.get("abc", "gth_abc_secret_longer"), null);
  assert.equal(keys.get("abc", "gth_abc_secre"), null);
  assert.equal(keys.get("abd", "gth_abc_secret"), null);
  keys.set("abc", "gth_abc_old", RECORD, "previous");
  assert.equal(keys.get("abc", "gth_abc_secret"), null, "one remembered secret per id");
  assert.equal(keys.get("abc", "gth_abc_old")?.matched, "previous");
});

Deno.test("VerifiedKeys reads the generation at most once per interval and forgets on a change", () => {
  const { keys, state } = memory(250);
  keys.get("abc", "x");
  assert.equal(state.reads, 1, "the first use reads the generation");
  keys.set("abc", "x", RECORD, "current");
  state.generation = 1;
  state.clock = 249;
  assert.ok(keys.get("abc", "x"), "still trusted inside the interval");
  assert.equal(state.reads, 1);
  state.clock = 250;
  assert.equal(keys.get("abc", "x"), null, "the generation moved: forgotten");
  assert.equal(state.reads, 2);
  keys.set("abc", "x", RECORD, "current");
  state.clock = 600;
  assert.ok(keys.get("abc", "x"), "an unchanged generation keeps the memory");
  assert.equal(state.reads, 3);
});

Deno.test("VerifiedKeys with interval 0 reads the generation before every use", () => {
  const { keys, state } = memory(0);
  keys.set("abc", "x", RECORD, "current");
  assert.equal(state.reads, 1, "the first set reads the generation it belongs to");
  assert.ok(keys.get("abc", "x"));
  assert.ok(keys.get("abc", "x"));
  assert.equal(state.reads, 3);
  state.generation = 7;
  assert.equal(keys.get("abc", "x"), null);
});

Deno.test("VerifiedKeys: reset forgets everything and takes the store's own new generation", () => {
  const { keys, state } = memory(0);
  keys.get("abc", "x");
  keys.set("abc", "x", RECORD, "current");
  keys.set("abd", "y", RECORD, "current");
  assert.equal(keys.size, 2);
  state.generation = 1;
  keys.reset(1);
  assert.equal(keys.size, 0);
  keys.set("abc", "x", RECORD, "current");
  assert.ok(keys.get("abc", "x"), "the store's own bump does not clear the memory again");
});

Deno.test("VerifiedKeys: update replaces a record; forget drops one id", () => {
  const { keys } = memory();
  keys.set("abc", "x", RECORD, "current");
  keys.update("abc", { ...RECORD, lastUsedAt: 5 });
  keys.update("zzz", RECORD);
  assert.equal(keys.get("abc", "x")?.record.lastUsedAt, 5);
  keys.forget("abc");
  assert.equal(keys.get("abc", "x"), null);
  assert.equal(KEYS_CHECK_INTERVAL_MS, 250);
});

/** Two stores on one file, as the gateway and the CLI (or two instances) are. */
async function twoStores(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(join(dir, "g.db"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Polls `check` until `done` says so, for at most `limitMs`; the time it took. */
async function within(
  limitMs: number,
  check: () => Promise<KeyCheck>,
  done: (check: KeyCheck) => boolean,
): Promise<number> {
  const start = performance.now();
  while (!done(await check())) {
    const elapsed = performance.now() - start;
    if (elapsed > limitMs) assert.fail(`not seen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - start;
}

Deno.test("a key revoked by another connection is refused here within a second", async () => {
  await twoStores(async (path) => {
    const gateway = openSqliteStore(path);
    const cli = openSqliteStore(path);
    try {
      const { key, record } = await gateway.createKey("k");
      assert.ok("record" in await gateway.checkKey(key), "remembered now");
      assert.equal(await cli.revokeKey(record.id), true);
      const took = await within(1000, () => gateway.checkKey(key), (c) => !("record" in c));
      assert.ok(took <= KEYS_CHECK_INTERVAL_MS + 100, `took ${took.toFixed(0)} ms`);
      assert.equal((await gateway.checkKey(key) as { reason: string }).reason, "revoked");
    } finally {
      await cli.close();
      await gateway.close();
    }
  });
});

Deno.test("a policy or team change made elsewhere reaches the remembered record", async () => {
  await twoStores(async (path) => {
    const gateway = openSqliteStore(path, { keysCheckIntervalMs: 0 });
    const admin = openSqliteStore(path);
    try {
      await admin.createTeam("red", { rpm: 1 });
      const { key, record } = await admin.createKey({ name: "k", team: "red" });
      const seen = async () => {
        const check = await gateway.checkKey(key);
        assert.ok("record" in check);
        return check.record;
      };
      assert.deepEqual((await seen()).teamPolicy, { rpm: 1 });
      await admin.updateKey(record.id, { policy: { tpm: 50 } });
      assert.deepEqual((await seen()).policy, { tpm: 50 });
      await admin.updateTeam("red", { rpm: 2 });
      assert.deepEqual((await seen()).teamPolicy, { rpm: 2 });
      await admin.updateKey(record.id, { team: null });
      assert.equal((await seen()).teamPolicy, null);
      const rotated = await admin.rotateKey(record.id, 0);
      assert.ok(rotated);
      assert.equal((await gateway.checkKey(key) as { reason: string }).reason, "rotated");
      assert.equal((await gateway.verifyKey(rotated.key))?.id, record.id);
    } finally {
      await admin.close();
      await gateway.close();
    }
  });
});

Deno.test("a key revoked in the same store is refused at once, whatever the interval", async () => {
  const store = openSqliteStore(":memory:", { keysCheckIntervalMs: 60_000 });
  try {
    const { key, record } = await store.createKey("k");
    assert.equal((await store.verifyKey(key))?.id, record.id);
    assert.equal(await store.revokeKey(record.id), true);
    assert.equal(await store.verifyKey(key), null);
  } finally {
    await store.close();
  }
});

Deno.test("a wrong secret under a remembered key id does not verify", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const { key } = await store.createKey("k");
    assert.ok(await store.verifyKey(key));
    const wrong = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
    assert.deepEqual(await store.checkKey(wrong), { reason: "unknown" });
  } finally {
    await store.close();
  }
});
