/**
 * What a hard crash can lose from the ledger. Rows are written in batches a few milliseconds
 * apart (store/sqlite/usage.ts); a gateway killed with SIGKILL keeps every row of a request
 * answered more than one batch window before the kill. Here: a real `main.ts` process serves a
 * burst of requests, is SIGKILLed shortly after the last answer, and the file holds every row.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSqliteStore } from "../../store/sqlite/sqlite_store.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const REQUESTS = 400;
const CONCURRENCY = 16;

/** Starts `main.ts --demo` on a free port; resolves with its address once it listens. */
async function startGateway(dbPath: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-write", MAIN, "--demo"],
    env: { GATEHOUSE_DB: dbPath, PORT: "0", HOST: "127.0.0.1", DOCS_PORT: "off" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value, done } = await lines.read();
    if (done) break;
    seen += value;
    const port = /listening on http:\/\/[^:]+:(\d+)/.exec(seen)?.[1];
    if (port) {
      // Keep draining stdout so the child never blocks on a full pipe.
      (async () => {
        while (!(await lines.read().catch(() => ({ done: true }))).done) { /* drain */ }
      })();
      return { child, url: `http://127.0.0.1:${port}` };
    }
  }
  child.kill("SIGKILL");
  throw new Error(`the gateway did not start: ${seen}`);
}

Deno.test("a SIGKILLed gateway keeps the ledger rows of every request answered before the kill", async () => {
  const dir = await Deno.makeTempDir();
  const dbPath = join(dir, "gatehouse.db");
  try {
    const seed = openSqliteStore(dbPath);
    const { key, record } = await seed.createKey("crash");
    await seed.close();
    const { child, url } = await startGateway(dbPath);
    let next = 0;
    let answered = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        next++;
        const response = await fetch(`${url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "gpt-5", messages: [{ role: "user", content: "Hi" }] }),
        });
        await response.arrayBuffer();
        if (response.status === 200) answered++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    assert.equal(answered, REQUESTS);
    // Ten batch windows after the last answer, then no chance to flush.
    await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill("SIGKILL");
    assert.equal((await child.status).signal, "SIGKILL");
    const after = openSqliteStore(dbPath);
    try {
      const report = await after.usageReport({ keyId: record.id, start: 0, end: Date.now() + 1 });
      assert.equal(report.totals.requests, REQUESTS);
      assert.equal(report.totals.outcomes.ok, REQUESTS);
    } finally {
      await after.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
