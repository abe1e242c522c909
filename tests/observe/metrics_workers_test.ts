/**
 * `main.ts --demo --workers 2`: one scrape covers both worker threads, whichever worker the
 * scrape lands on (the API port's `/metrics`, each on a new connection) and on `METRICS_PORT`
 * (no key): the counters add up to the requests sent, and each deployment's state is seen by
 * both workers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIRST_KEY, startGateway } from "../governance/gateway_process.ts";
import { parseExposition, samplesOf, total } from "../../observe/metrics/testing.ts";

const SENT = 40;

/** A GET or POST on a connection of its own, so the kernel spreads them over the workers. */
async function fresh(url: string, init: RequestInit = {}): Promise<Response> {
  const client = Deno.createHttpClient({});
  try {
    const response = await fetch(url, { ...init, client });
    const text = await response.text();
    return new Response(text, { status: response.status, headers: response.headers });
  } finally {
    client.close();
  }
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test({
  name: "metrics with workers: one scrape sees every worker's requests",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const metricsPort = freePort();
    const gateway = await startGateway(join(dir, "gatehouse.db"), {
      env: { GATEHOUSE_WORKERS: "2", METRICS_PORT: String(metricsPort) },
    });
    try {
      const admin = FIRST_KEY.exec(gateway.output())?.[1];
      assert.ok(admin, gateway.output());
      const auth = { authorization: `Bearer ${admin}` };
      const answers = await Promise.all(
        Array.from({ length: SENT }, (_, i) =>
          fresh(`${gateway.url}/v1/chat/completions`, {
            method: "POST",
            headers: { ...auth, "content-type": "application/json" },
            body: JSON.stringify({
              model: "gpt-5",
              stream: i % 2 === 0,
              messages: [{ role: "user", content: "Hi" }],
            }),
          })),
      );
      assert.deepEqual(answers.map((a) => a.status), Array(SENT).fill(200));

      const scrapes = [
        ...await Promise.all(
          Array.from({ length: 4 }, () => fresh(`${gateway.url}/metrics`, { headers: auth })),
        ),
        await fresh(`http://127.0.0.1:${metricsPort}/metrics`),
      ];
      for (const scrape of scrapes) {
        assert.equal(scrape.status, 200);
        const x = parseExposition(await scrape.text());
        assert.equal(total(x, "gatehouse_requests_total", { outcome: "ok" }), SENT);
        assert.equal(total(x, "gatehouse_request_duration_seconds_count"), SENT);
        assert.equal(total(x, "gatehouse_time_to_first_token_seconds_count"), SENT / 2);
        assert.equal(total(x, "gatehouse_upstream_attempts_total"), SENT);
        // Each worker has its own breakers and its own series (the worker label): both answer,
        // each seeing every deployment healthy.
        const healthy = samplesOf(x, "gatehouse_deployment_state", { state: "healthy" });
        assert.ok(healthy.length > 0);
        for (const s of healthy) assert.equal(s.value, 1, JSON.stringify(s));
        const workers = new Set(healthy.map((s) => s.labels.worker));
        assert.deepEqual([...workers].sort(), ["0", "1"]);
        const requestWorkers = samplesOf(x, "gatehouse_requests_total").map((s) => s.labels.worker);
        assert.ok(
          requestWorkers.every((w) => w === "0" || w === "1"),
          "every series names its worker",
        );
        assert.equal(total(x, "gatehouse_requests_in_flight"), 0);
      }
    } finally {
      const status = await gateway.stop();
      assert.equal(status.code, 0, gateway.output());
    }
  },
});
