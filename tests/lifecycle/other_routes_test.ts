/**
 * The lifecycle beyond the language routes: token counting and image generation settle exactly
 * one ledger row with the right outcome, images forward through the same capped error path; every
 * response carries `x-request-id` (the client's own when sane), and `/v1/usage` counts outcomes.
 */
import assert from "node:assert/strict";
import { MAX_ERROR_BODY } from "../../gateway/upstream_failure.ts";
import { type Outcome, OUTCOMES } from "../../store/store.ts";
import { listen, makeHarness, resetHealth, upstreamEnv } from "../harness.ts";
import { HUGE_ERROR_BYTES, type Mode, startModeUpstream } from "./mode_upstream.ts";

const upstream = startModeUpstream();
const harness = await makeHarness({
  demo: false,
  env: {
    ...upstreamEnv(upstream.url),
    GATEHOUSE_UPSTREAM_TIMEOUT_MS: "300",
    // One attempt per request (retries have their own tests in tests/reliability/).
    GATEHOUSE_RETRIES: "0",
  },
});
const server = listen(harness);
const demo = await makeHarness({ demo: true });

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${harness.key}`,
      "content-type": "application/json",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** Waits for the one ledger row a request writes; fails on none or on a second one. */
async function oneRow(rows: typeof harness.rows, before: number, outcome: Outcome) {
  for (let i = 0; i < 150 && rows.length === before; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(rows.length, before + 1, "exactly one ledger row per request");
  const row = rows[before]!;
  assert.equal(row.outcome, outcome);
  return row;
}

const COUNT = "/v1/messages/count_tokens";
const IMAGES = "/v1/images/generations";
const countBody = { model: "claude-sonnet-5", messages: [{ role: "user", content: "Hi" }] };
const imageBody = { model: "gpt-image-1", prompt: "an otter", n: 2 };

const UPSTREAM_CASES: Array<{ mode: Mode; status: number; outcome: Outcome }> = [
  { mode: "status_500", status: 502, outcome: "upstream_error" },
  { mode: "status_429", status: 429, outcome: "upstream_error" },
  { mode: "hang_headers", status: 504, outcome: "timeout" },
];

for (const c of UPSTREAM_CASES) {
  Deno.test(`${COUNT}: upstream ${c.mode} → counted locally, said in a warning, one row`, async () => {
    upstream.mode = c.mode;
    resetHealth(harness);
    const before = harness.rows.length;
    const response = await post(COUNT, countBody);
    assert.equal(response.status, 200);
    assert.ok((await response.json()).input_tokens > 0);
    assert.match(response.headers.get("x-gatehouse-warnings") ?? "", /provider's count failed/);
    const row = await oneRow(harness.rows, before, "ok");
    assert.equal(row.attempts, 1);
    assert.notEqual(row.attemptLog?.[0]?.result, "ok");
    assert.equal(row.cost, 0);
  });
}

for (const [path, body] of [[IMAGES, imageBody]] as const) {
  for (const c of UPSTREAM_CASES) {
    Deno.test(`${path}: upstream ${c.mode} → ${c.status}, ${c.outcome}, one row`, async () => {
      upstream.mode = c.mode;
      resetHealth(harness);
      const before = harness.rows.length;
      const response = await post(path, body);
      assert.equal(response.status, c.status);
      if (c.mode === "status_429") assert.equal(response.headers.get("retry-after"), "7");
      await response.body?.cancel();
      const row = await oneRow(harness.rows, before, c.outcome);
      assert.equal(row.route, path);
      assert.equal(row.status, c.status);
      assert.equal(row.attempts, 1);
      assert.equal(row.cost, 0);
    });
  }
}

Deno.test("count_tokens on an Anthropic upstream → ok, free, one row", async () => {
  upstream.mode = "ok";
  const before = harness.rows.length;
  const response = await post(COUNT, countBody);
  assert.equal(response.status, 200);
  assert.equal(typeof (await response.json()).input_tokens, "number");
  const row = await oneRow(harness.rows, before, "ok");
  assert.equal(row.cost, 0);
  assert.equal(row.upstream, "anthropic");
});

Deno.test("images: an upstream error body over the cap reaches the client cut at the cap", async () => {
  upstream.mode = "huge_error";
  const before = harness.rows.length;
  const response = await post(IMAGES, imageBody);
  assert.equal(response.status, 400);
  const text = await response.text();
  assert.ok(text.length <= MAX_ERROR_BODY && text.length < HUGE_ERROR_BYTES, `${text.length}`);
  await oneRow(harness.rows, before, "upstream_error");
});

Deno.test("images and local counting on the mock provider → ok, one row each, images billed", async () => {
  const before = demo.rows.length;
  const image = await demo.request(IMAGES, {
    method: "POST",
    headers: { authorization: `Bearer ${demo.key}` },
    json: { model: "gpt-image-1", prompt: "an otter", n: 3 },
  });
  assert.equal(image.status, 200);
  assert.equal((await image.json()).data.length, 3);
  const row = await oneRow(demo.rows, before, "ok");
  assert.equal(row.images, 3);
  assert.equal(row.upstream, "mock");
  const counted = await demo.request(COUNT, {
    method: "POST",
    headers: { authorization: `Bearer ${demo.key}` },
    json: { model: "gpt-5", messages: [{ role: "user", content: "Hi" }] },
  });
  assert.equal(counted.status, 200);
  const countRow = await oneRow(demo.rows, before + 1, "ok");
  assert.equal(countRow.attempts, 0, "counted locally: no upstream call");
});

Deno.test("x-request-id: a sane client id is kept, answered and recorded", async () => {
  upstream.mode = "ok";
  const before = harness.rows.length;
  const response = await post(COUNT, countBody, { "x-request-id": "client-trace.42:abc" });
  assert.equal(response.headers.get("x-request-id"), "client-trace.42:abc");
  await response.body?.cancel();
  assert.equal((await oneRow(harness.rows, before, "ok")).requestId, "client-trace.42:abc");
});

Deno.test("x-request-id: an unusable client id is replaced by gatehouse's own", async () => {
  for (const sent of ["short", "has space in it", "x".repeat(129), "ünïcode-id-123"]) {
    const before = harness.rows.length;
    const response = await post(COUNT, countBody, { "x-request-id": sent });
    const id = response.headers.get("x-request-id") ?? "";
    assert.match(id, /^req_[0-9a-z]{24}$/, sent);
    await response.body?.cancel();
    assert.equal((await oneRow(harness.rows, before, "ok")).requestId, id);
  }
});

Deno.test("x-request-id: refusals before any model work carry one too", async () => {
  const noKey = await fetch(`${server.url}/v1/models`);
  assert.equal(noKey.status, 401);
  assert.match(noKey.headers.get("x-request-id") ?? "", /^req_/);
  await noKey.body?.cancel();
  const noRoute = await fetch(`${server.url}/v1/nothing`, {
    headers: { "x-request-id": "trace-0001" },
  });
  assert.equal(noRoute.status, 404);
  assert.equal(noRoute.headers.get("x-request-id"), "trace-0001");
  await noRoute.body?.cancel();
});

Deno.test("/v1/usage counts requests per outcome, every outcome present", async () => {
  const auth = { authorization: `Bearer ${demo.key}` };
  const ok = await demo.request("/v1/chat/completions", {
    method: "POST",
    headers: auth,
    json: { model: "gpt-5", messages: [{ role: "user", content: "Hi" }] },
  });
  await ok.body?.cancel();
  const unknown = await demo.request("/v1/chat/completions", {
    method: "POST",
    headers: auth,
    json: { model: "no-such-model", messages: [{ role: "user", content: "Hi" }] },
  });
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
  await new Promise((resolve) => setTimeout(resolve, 30));
  const report = await (await demo.request("/v1/usage", { headers: auth })).json();
  const expected = Object.fromEntries(
    OUTCOMES.map((o) => [o, demo.rows.filter((row) => row.outcome === o).length]),
  );
  assert.deepEqual(report.totals.outcomes, expected);
  assert.ok(report.totals.outcomes.ok >= 1 && report.totals.outcomes.rejected >= 1);
  assert.equal(report.totals.requests, demo.rows.length);
});

Deno.test("x-request-id: every kind of answer carries the client's id, streams and forwarded errors included", async () => {
  const id = { "x-request-id": "sweep-0000-id" };
  const auth = { authorization: `Bearer ${demo.key}`, ...id };
  const hi = [{ role: "user", content: "Hi" }];
  const calls: Array<[string, string, unknown]> = [
    ["GET", "/v1/models", undefined],
    ["GET", "/v1/usage", undefined],
    ["POST", "/v1/chat/completions", { model: "gpt-5", messages: hi }],
    ["POST", "/v1/chat/completions", { model: "gpt-5", messages: hi, stream: true }],
    ["POST", "/v1/messages", { model: "gpt-5", max_tokens: 16, messages: hi }],
    ["POST", "/v1/messages", {
      model: "claude-sonnet-5",
      max_tokens: 16,
      messages: hi,
      stream: true,
    }],
    ["POST", "/v1/responses", { model: "claude-sonnet-5", input: "Hi", stream: true }],
    ["POST", COUNT, { model: "gpt-5", messages: hi }],
    ["POST", IMAGES, { model: "gpt-image-1", prompt: "an otter" }],
  ];
  for (const [method, path, json] of calls) {
    const response = await demo.request(path, { method, headers: auth, json });
    assert.equal(response.status, 200, `${method} ${path}`);
    assert.equal(response.headers.get("x-request-id"), "sweep-0000-id", `${method} ${path}`);
    await response.body?.cancel();
  }
  upstream.mode = "status_500";
  const forwarded = await post("/v1/chat/completions", { model: "gpt-5", messages: hi }, id);
  assert.equal(forwarded.status, 502);
  assert.equal(forwarded.headers.get("x-request-id"), "sweep-0000-id");
  await forwarded.body?.cancel();
  upstream.mode = "ok";
});

Deno.test("other routes: close", async () => {
  await server.close();
  await harness.close();
  await demo.close();
  await upstream.close();
});
