import assert from "node:assert/strict";
import { join } from "node:path";
import { openStore } from "./open_store.ts";

Deno.test("openStore: :memory: opens a working SQLite store", async () => {
  const store = await openStore(":memory:");
  try {
    assert.equal(await store.countKeys(), 0);
    await store.createKey("a");
    assert.equal(await store.countKeys(), 1);
  } finally {
    await store.close();
  }
});

Deno.test("openStore: a file path creates missing directories", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "nested", "deeper", "gatehouse.db");
    const store = await openStore(path);
    await store.close();
    assert.ok((await Deno.stat(path)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore: postgres URLs are refused with a message naming the fix", async () => {
  for (const url of ["postgres://u:p@localhost/db", "postgresql://localhost/db"]) {
    await assert.rejects(openStore(url), (error: Error) => {
      assert.match(error.message, /Postgres store is not implemented yet/);
      assert.match(error.message, /GATEHOUSE_DB must be a SQLite file path/);
      assert.ok(!error.message.includes("u:p"), "the URL (and its password) is not echoed");
      return true;
    });
  }
});

Deno.test("openStore: an empty value is refused", async () => {
  await assert.rejects(openStore("  "), /GATEHOUSE_DB is empty/);
});
