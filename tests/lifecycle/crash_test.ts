/**
 * What a hard crash can lose from the ledger. Rows are written in batches a few milliseconds
 * apart (store/sqlite/usage.ts); a gateway killed with SIGKILL keeps every row of a request
 * answered more than one batch window before the kill. Here: a real `main.ts` process serves a
 * burst of requests, is SIGKILLed shortly after the last answer, and the file holds every row.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSqliteStore } from "../../store/sqlite/sqlite_store.ts";
import { type GatewayProcess, startGateway } from "../governance/gateway_process.ts";

const REQUESTS = 400;
const CONCURRENCY = 16;

Deno.test("a SIGKILLed gateway keeps the ledger rows of every request answered before the kill", async () => {
  const dir = await Deno.makeTempDir();
  const dbPath = join(dir, "gatehouse.db");
  let gateway: GatewayProcess | null = null;
  try {
    const seed = openSqliteStore(dbPath);
    const { key, record } = await seed.createKey("crash");
    await seed.close();
    gateway = await startGateway(dbPath);
    const { child, url } = gateway;
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
    await gateway?.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
