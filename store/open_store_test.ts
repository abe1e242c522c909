import assert from "node:assert/strict";
import { join } from "node:path";
import { openStore } from "./open_store.ts";

Deno.test("openStore: :memory: opens a working SQLite store", async () => {
  const store = await openStore(":memory:");
  try {
    assert.equal(store.kind, "sqlite");
    assert.equal(store.describe(), ":memory:");
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
    assert.equal(store.describe(), path);
    await store.close();
    assert.ok((await Deno.stat(path)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore: a postgres URL opens the Postgres store; a failure names it without secrets", async () => {
  // Port 1 refuses at once: the connection fails, and the message must not echo the password.
  const url = "postgres://user:hunter2@127.0.0.1:1/gatehouse";
  await assert.rejects(openStore(url), (error: Error) => {
    assert.match(
      error.message,
      /could not open the Postgres store at postgres:\/\/127\.0\.0\.1:1\/gatehouse/,
    );
    assert.ok(!error.message.includes("hunter2"), "the password is not echoed");
    return true;
  });
});

Deno.test("openStore: an empty value is refused", async () => {
  await assert.rejects(openStore("  "), /database setting is empty/);
});

Deno.test("openStore: an unparseable Postgres URL is refused without repeating its password", async () => {
  await assert.rejects(
    openStore("postgres://u:s3cret@host:54x32/db"),
    (error: Error) => !error.message.includes("s3cret") && /cannot be parsed/.test(error.message),
  );
});
