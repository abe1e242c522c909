/**
 * `main.ts --workers 2` on one SQLite file: two worker threads serve one port, and the limits
 * coordinator on the first thread keeps an rpm limit and a max_parallel limit exact across them
 * (each request on a new connection, so the kernel spreads them over both workers). SIGTERM
 * drains both and exits 0 with every row written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIRST_KEY, send, startGateway } from "../governance/gateway_process.ts";

/** A request on a connection of its own. */
async function fresh(url: string, key: string, path: string, init: RequestInit = {}) {
  const client = Deno.createHttpClient({});
  try {
    const response = await fetch(`${url}${path}`, {
      ...init,
      client,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });
    const text = await response.text();
    const json = response.headers.get("content-type")?.includes("application/json");
    return { status: response.status, body: json ? JSON.parse(text) : text };
  } finally {
    client.close();
  }
}

const chatBody = JSON.stringify({
  model: "gpt-5",
  max_tokens: 16,
  messages: [{ role: "user", content: "Hi" }],
});
const streamBody = JSON.stringify({ ...JSON.parse(chatBody), stream: true });

Deno.test({
  name: "workers: two worker threads on one port share exact limits through the coordinator",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const gateway = await startGateway(join(dir, "gatehouse.db"), {
      env: { GATEHOUSE_WORKERS: "2", GATEHOUSE_MOCK_DELAY_MS: "25" },
    });
    try {
      assert.match(gateway.output(), /workers 2, store sqlite .*gatehouse\.db, limits shared by/);
      const admin = FIRST_KEY.exec(gateway.output())?.[1];
      assert.ok(admin, gateway.output());
      const create = async (policy: Record<string, unknown>) =>
        (await send(gateway.url, admin, "/admin/v1/keys", {
          method: "POST",
          body: JSON.stringify({ name: "workers", ...policy }),
        })).body.key as string;

      const rpmKey = await create({ rpm: 10 });
      const answers = await Promise.all(
        Array.from(
          { length: 30 },
          () =>
            fresh(gateway.url, rpmKey, "/v1/chat/completions", { method: "POST", body: chatBody }),
        ),
      );
      assert.equal(answers.filter((a) => a.status === 200).length, 10);
      assert.equal(answers.filter((a) => a.status === 429).length, 20);

      const parallelKey = await create({ max_parallel: 3 });
      const streams = await Promise.all(
        Array.from({ length: 12 }, () =>
          fresh(gateway.url, parallelKey, "/v1/chat/completions", {
            method: "POST",
            body: streamBody,
          })),
      );
      const ok = streams.filter((a) => a.status === 200).length;
      const refused = streams.filter((a) => a.status === 429);
      // Each answer takes ~0.4 s (25 ms a token) and all 12 arrive well within that: exactly the
      // limit runs. Counted per worker, up to twice as many would.
      assert.equal(ok, 3);
      assert.equal(refused.length, 9);
      for (const answer of refused) assert.match(answer.body.error.message, /max_parallel is 3/);

      const usage = await send(gateway.url, rpmKey, "/v1/usage");
      assert.equal(usage.body.totals.requests, 30);
    } finally {
      const status = await gateway.stop();
      assert.equal(status.code, 0, gateway.output());
    }
  },
});
