import assert from "node:assert/strict";
import { join } from "node:path";
import { openDatabase } from "./open.ts";
import { SCHEMA_VERSION, schemaVersion } from "./migrations.ts";

function pragma(db: ReturnType<typeof openDatabase>, name: string, column = name): unknown {
  return db.prepare(`PRAGMA ${name}`).get()?.[column];
}

Deno.test("openDatabase: file databases use WAL, synchronous=NORMAL, busy_timeout", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const db = openDatabase(join(dir, "a", "b.db"));
    assert.equal(pragma(db, "journal_mode"), "wal");
    assert.equal(pragma(db, "synchronous"), 1);
    assert.equal(pragma(db, "busy_timeout", "timeout"), 5000);
    assert.equal(schemaVersion(db), SCHEMA_VERSION);
    db.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openDatabase: :memory: is migrated and creates no file", () => {
  const db = openDatabase(":memory:");
  assert.equal(schemaVersion(db), SCHEMA_VERSION);
  assert.equal(pragma(db, "journal_mode"), "memory");
  db.close();
});

Deno.test("openDatabase: an unusable path fails with a message naming GATEHOUSE_DB", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "file");
    await Deno.writeTextFile(file, "x");
    assert.throws(() => openDatabase(join(file, "db.sqlite")), /GATEHOUSE_DB/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
