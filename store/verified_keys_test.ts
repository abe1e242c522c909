import assert from "node:assert/strict";
import { openSqliteStore } from "./sqlite/sqlite_store.ts";
import { VERIFIED_KEY_TTL_MS, VerifiedKeys } from "./verified_keys.ts";
import type { KeyRecord } from "./store.ts";

const RECORD: KeyRecord = {
  id: "abc",
  name: "n",
  hint: "gth_abc…",
  createdAt: 0,
  revokedAt: null,
  lastUsedAt: null,
};

Deno.test("VerifiedKeys answers only for the exact key that verified, until its time runs out", () => {
  const keys = new VerifiedKeys(1000);
  keys.set("abc", "gth_abc_secret", RECORD, 0);
  assert.equal(keys.get("abc", "gth_abc_secret", 999), RECORD);
  assert.equal(keys.get("abc", "gth_abc_secreT", 10), null);
  assert.equal(keys.get("abc", "gth_abc_secret_longer", 10), null);
  assert.equal(keys.get("abc", "gth_abc_secre", 10), null);
  assert.equal(keys.get("abc", "gth_abc_secret", 1000), null);
  assert.equal(keys.get("abc", "gth_abc_secret", 10), null, "an expired entry is gone");
});

Deno.test("VerifiedKeys forgets a revoked id", () => {
  const keys = new VerifiedKeys();
  keys.set("abc", "gth_abc_secret", RECORD, 0);
  keys.forget("abc");
  assert.equal(keys.get("abc", "gth_abc_secret", 1), null);
});

Deno.test("a key revoked in the same store stops verifying at once", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const { key, record } = await store.createKey("k");
    assert.equal((await store.verifyKey(key))?.id, record.id);
    assert.equal(await store.revokeKey(record.id), true);
    assert.equal(await store.verifyKey(key), null);
  } finally {
    await store.close();
  }
});

Deno.test("a key revoked by another process stops verifying within the TTL", async () => {
  const dir = await Deno.makeTempDir();
  let now = 1_000_000;
  const gateway = openSqliteStore(`${dir}/g.db`, { now: () => now });
  try {
    const { key, record } = await gateway.createKey("k");
    assert.equal((await gateway.verifyKey(key))?.id, record.id);
    const cli = openSqliteStore(`${dir}/g.db`);
    assert.equal(await cli.revokeKey(record.id), true);
    await cli.close();
    now += VERIFIED_KEY_TTL_MS - 1;
    assert.equal((await gateway.verifyKey(key))?.id, record.id, "still remembered");
    now += 1;
    assert.equal(await gateway.verifyKey(key), null, "asked the database again");
  } finally {
    await gateway.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a wrong secret under a remembered key id does not verify", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const { key } = await store.createKey("k");
    assert.ok(await store.verifyKey(key));
    const wrong = key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
    assert.equal(await store.verifyKey(wrong), null);
  } finally {
    await store.close();
  }
});
