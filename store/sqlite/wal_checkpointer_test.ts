import assert from "node:assert/strict";
import { benchUsageRecord } from "../../bench/scale/ledger_rate.ts";
import { openDatabase } from "./open.ts";
import { openSqliteStore, SqliteStore } from "./sqlite_store.ts";
import { UsageLedger } from "./usage.ts";
import { BACKSTOP_PAGES, type CheckpointerOptions, WalCheckpointer } from "./wal_checkpointer.ts";
import type { DatabaseSync } from "node:sqlite";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pragma(db: DatabaseSync, name: string): number {
  return Number(Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]);
}

function walBytes(path: string): number {
  try {
    return Deno.statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/** Runs `test` on a fresh database file with a checkpointer (its worker opening `workerPath`
 * when given), closes both, runs `afterClose` and removes the file. */
async function withCheckpointer(
  options: CheckpointerOptions & { workerPath?: string },
  test: (db: DatabaseSync, checkpointer: WalCheckpointer, path: string) => Promise<void>,
  afterClose: (path: string) => void = () => {},
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/ledger.db`;
  const db = openDatabase(path);
  const checkpointer = new WalCheckpointer(db, options.workerPath ?? path, options);
  try {
    await test(db, checkpointer, path);
  } finally {
    await checkpointer.close();
    db.close();
  }
  afterClose(path);
  await Deno.remove(dir, { recursive: true });
}

/** Waits up to 10 s for `done`. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 10_000; waited += 10) await sleep(10);
}

Deno.test("the worker copies the log and the writer's catch-up keeps the -wal file small", () =>
  withCheckpointer({ intervalMs: 20 }, async (db, checkpointer, path) => {
    const ledger = new UsageLedger(db, () => checkpointer.committed());
    const now = Date.now();
    let written = 0;
    let largest = 0;
    // About 30 MB of log: without the writer's catch-up the file never starts over while
    // commits keep landing, and grows by all of it.
    for (let batch = 0; batch < 600; batch++) {
      for (let i = 0; i < 25; i++) ledger.record(benchUsageRecord(written++, now));
      ledger.flush();
      largest = Math.max(largest, walBytes(path));
      await sleep(1);
    }
    assert.ok(checkpointer.active, "the worker runs after the first commit");
    // The worker sets the backstop when it reports its connection open: on a loaded box its
    // start can take longer than the writes above.
    await until(() => pragma(db, "wal_autocheckpoint") === BACKSTOP_PAGES);
    assert.equal(pragma(db, "wal_autocheckpoint"), BACKSTOP_PAGES, "the writer's is a backstop");
    assert.ok(largest < 12 * 2 ** 20, `the -wal file reached ${largest} bytes`);
    assert.equal(db.prepare("SELECT count(*) AS n FROM usage").get()?.n, written);
  }, (path) => {
    assert.equal(walBytes(path), 0, "the last connection's close copied and removed the log");
    const reopened = openDatabase(path);
    assert.equal(reopened.prepare("PRAGMA integrity_check").get()?.integrity_check, "ok");
    reopened.close();
  }));

Deno.test("a failed worker hands checkpoints back to SQLite, and says so once", () => {
  const told: string[] = [];
  // The worker cannot open this file: it fails as soon as it starts.
  return withCheckpointer({
    intervalMs: 20,
    workerPath: "/nonexistent/gatehouse/ledger.db",
    onFallback: (message) => told.push(message),
  }, async (db, checkpointer) => {
    checkpointer.committed();
    await until(() => !checkpointer.active);
    assert.equal(checkpointer.active, false);
    assert.equal(pragma(db, "wal_autocheckpoint"), 1000);
    checkpointer.committed();
    assert.equal(checkpointer.active, false, "a failed worker is not started again");
    assert.equal(told.length, 1);
    assert.match(told[0]!, /checkpoint worker of .* stopped \(unable to open database file/);
  });
});

Deno.test("a worker that stops answering hands checkpoints back to SQLite", () => {
  const told: string[] = [];
  return withCheckpointer({
    intervalMs: 10,
    answerTimeoutMs: 200,
    workerUrl: new URL("./testdata/silent_checkpoint_worker.ts", import.meta.url),
    onFallback: (message) => told.push(message),
  }, async (db, checkpointer) => {
    checkpointer.committed();
    await until(() => pragma(db, "wal_autocheckpoint") === BACKSTOP_PAGES);
    assert.equal(pragma(db, "wal_autocheckpoint"), BACKSTOP_PAGES, "the worker opened the file");
    checkpointer.committed();
    await sleep(250);
    assert.ok(checkpointer.active, "still waiting for the answer");
    checkpointer.committed();
    assert.equal(checkpointer.active, false);
    assert.equal(pragma(db, "wal_autocheckpoint"), 1000);
    assert.deepEqual(told.map((m) => /stopped \(([^)]*)\)/.exec(m)?.[1]), [
      "it did not answer a checkpoint in 0.2 s",
    ]);
  });
});

Deno.test("several writers on one file (--workers): the backstop keeps the -wal file bounded", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/gatehouse.db`;
  openDatabase(path).close();
  const threads = 4;
  const workers = Array.from(
    { length: threads },
    () =>
      new Worker(new URL("./testdata/ledger_writer_worker.ts", import.meta.url), {
        type: "module",
      }),
  );
  try {
    const written = Promise.all(workers.map((worker, id) => {
      const done = new Promise<number>((resolve) => (worker.onmessage = (e) => resolve(e.data)));
      worker.postMessage({ path, id, perTick: 10, ms: 5000 });
      return done;
    }));
    let largest = 0;
    let rows: number[] | null = null;
    written.then((counts) => (rows = counts));
    while (rows === null) {
      largest = Math.max(largest, walBytes(path));
      await sleep(50);
    }
    // 8 MB of backstop plus what the writers commit while it copies: 12-18 MB here. Without it
    // (the writer's own checkpoint off) the file reached 46-77 MB in this test.
    assert.ok(largest < 32 * 2 ** 20, `the -wal file reached ${largest} bytes`);
    const db = openDatabase(path);
    const total = (rows as number[]).reduce((a, b) => a + b, 0);
    assert.equal(db.prepare("SELECT count(*) AS n FROM usage").get()?.n, total);
    db.close();
  } finally {
    for (const worker of workers) worker.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a file store starts its worker with the ledger and stops it on close", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/gatehouse.db`;
  const store = openSqliteStore(path);
  const now = Date.now();
  await store.recordUsage(benchUsageRecord(1, now));
  const report = await store.usageReport({ start: now, end: now + 10 });
  assert.equal(report.totals.requests, 1);
  // The test's resource sanitizer fails the test if the worker outlives the store.
  await store.close();
  await store.close();
  // A serving gateway's store starts the worker at open, before any commit.
  const connection = openDatabase(path);
  const again = new SqliteStore(connection, { checkpointsFromOpen: true }, path);
  await until(() => pragma(connection, "wal_autocheckpoint") === BACKSTOP_PAGES);
  assert.equal(pragma(connection, "wal_autocheckpoint"), BACKSTOP_PAGES);
  assert.equal((await again.usageReport({ start: now, end: now + 10 })).totals.requests, 1);
  await again.close();
  await Deno.remove(dir, { recursive: true });
});
