/**
 * The series after real requests through the gateway over the fault fakes: each settled request
 * counted once with its ledger row's tokens and cost, a streamed answer's time to first token,
 * a retry and a fallback with each attempt's result, a limit refusal by kind, and the requests
 * in flight while one runs. Each test reads what its requests added (the series are cumulative).
 */
import assert from "node:assert/strict";
import { readStream } from "../governance/gov_kit.ts";
import { bodyFor, PATH, startRig } from "../reliability/reliability_rig.ts";
import { status } from "../reliability/fault_upstream.ts";
import { type Exposition, parseExposition, total } from "../../observe/metrics/testing.ts";

const rig = await startRig({ GATEHOUSE_RETRIES: "2" });

async function scrape(): Promise<Exposition> {
  const response = await rig.admin("/metrics");
  assert.equal(response.status, 200);
  return parseExposition(await response.text());
}

/** What `name` (matching `labels`) grew by between two scrapes. */
const grew = (before: Exposition, after: Exposition, name: string, labels = {}) =>
  total(after, name, labels) - total(before, name, labels);

Deno.test("metrics: whole and streamed answers, counted with their rows' tokens and cost", async () => {
  rig.reset();
  const before = await scrape();
  const whole = await rig.send("chat", "gpt-a");
  assert.equal(whole.status, 200);
  await whole.body?.cancel();
  const streamed = await rig.send("messages", "claude-a", { stream: true });
  assert.equal((await readStream("messages", streamed)).ending, "clean");
  const rows = [await rig.row(whole), await rig.row(streamed)];
  const after = await scrape();
  const chat = { route: "/v1/chat/completions", model: "gpt-a", provider: "openai-a" };
  assert.equal(
    grew(before, after, "gatehouse_requests_total", {
      ...chat,
      outcome: "ok",
      status_class: "2xx",
    }),
    1,
  );
  assert.equal(grew(before, after, "gatehouse_requests_total", { route: "/v1/messages" }), 1);
  const tokens = (type: string) => grew(before, after, "gatehouse_tokens_total", { type });
  assert.equal(tokens("input"), rows[0]!.inputTokens + rows[1]!.inputTokens);
  assert.equal(tokens("output"), rows[0]!.outputTokens + rows[1]!.outputTokens);
  const cost = grew(before, after, "gatehouse_cost_usd_total");
  assert.ok(Math.abs(cost - (rows[0]!.cost + rows[1]!.cost)) < 1e-12, `${cost}`);
  assert.ok(cost > 0);
  // Only the streamed answer has a time to first token.
  assert.equal(grew(before, after, "gatehouse_time_to_first_token_seconds_count"), 1);
  assert.equal(
    grew(before, after, "gatehouse_time_to_first_token_seconds_count", { model: "claude-a" }),
    1,
  );
  assert.equal(grew(before, after, "gatehouse_gateway_overhead_seconds_count"), 2);
  assert.equal(grew(before, after, "gatehouse_request_duration_seconds_count"), 2);
  assert.equal(grew(before, after, "gatehouse_upstream_attempts_total", { result: "ok" }), 2);
});

Deno.test("metrics: a retried request and a fallback, each attempt by its result", async () => {
  rig.reset();
  const before = await scrape();
  rig.a.push(status(503, { "retry-after-ms": "10" }));
  const retried = await rig.send("chat", "gpt-a");
  assert.equal(retried.status, 200);
  await retried.body?.cancel();
  assert.equal((await rig.row(retried)).attempts, 2);
  const fallback = await rig.send("chat", "claude-dead");
  assert.equal(fallback.status, 200, await fallback.clone().text());
  await fallback.body?.cancel();
  const row = await rig.row(fallback);
  const after = await scrape();
  assert.equal(grew(before, after, "gatehouse_retries_total", { model: "gpt-a" }), 1);
  assert.equal(
    grew(before, after, "gatehouse_upstream_attempts_total", {
      deployment: "gpt-a@openai-a",
      result: "retryable_status",
      status_class: "5xx",
    }),
    1,
  );
  const onFallback = row.attemptLog!.filter((a) => a.model !== "claude-dead").length;
  assert.ok(onFallback >= 1);
  assert.equal(
    grew(before, after, "gatehouse_fallbacks_total", {
      model: "claude-dead",
      fallback_model: "gpt-x",
    }),
    onFallback,
  );
  assert.equal(
    grew(before, after, "gatehouse_requests_total", {
      model: "claude-dead",
      served_model: "gpt-x",
      outcome: "ok",
    }),
    1,
  );
  assert.equal(
    grew(before, after, "gatehouse_upstream_attempts_total"),
    2 + row.attemptLog!.length,
  );
});

Deno.test("metrics: a limit refusal is counted by its kind", async () => {
  rig.reset();
  const { key } = await rig.h.deps.store.createKey({ name: "one-a-minute", policy: { rpm: 1 } });
  const before = await scrape();
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${rig.url}${PATH.chat}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(bodyFor("chat", "gpt-a")),
    });
    statuses.push(response.status);
    await response.body?.cancel();
  }
  assert.deepEqual(statuses, [200, 429, 429]);
  for (let waited = 0; waited < 2000; waited += 10) {
    if (rig.h.rows.filter((r) => r.status === 429).length >= 2) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const after = await scrape();
  assert.equal(
    grew(before, after, "gatehouse_limit_rejections_total", {
      kind: "rpm",
      route: "/v1/chat/completions",
      model: "gpt-a",
    }),
    2,
  );
  assert.equal(
    grew(before, after, "gatehouse_requests_total", { outcome: "rejected", status_class: "4xx" }),
    2,
  );
});

Deno.test("metrics: requests in flight and streams open are read at scrape", async () => {
  rig.reset();
  rig.a.push("drip");
  const streamed = await rig.send("chat", "gpt-a", { stream: true, text: "one two three four" });
  assert.equal(streamed.status, 200);
  const during = await scrape();
  assert.equal(total(during, "gatehouse_requests_in_flight"), 1);
  assert.equal(total(during, "gatehouse_streams_open"), 1);
  await readStream("chat", streamed);
  await rig.row(streamed);
  const after = await scrape();
  assert.equal(total(after, "gatehouse_requests_in_flight"), 0);
  assert.equal(total(after, "gatehouse_streams_open"), 0);
});

Deno.test({
  name: "metrics: close the rig",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () => rig.close(),
});
