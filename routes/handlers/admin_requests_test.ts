import assert from "node:assert/strict";
import type { AttemptRecord } from "../../store/store.ts";
import { makeHarness } from "../../tests/harness.ts";
import { adminCall, assertError, idOf, usageRow } from "./admin_test_kit.ts";

const MINUTE = 60_000;

const FALLBACK: AttemptRecord[] = [
  {
    deployment: "claude-sonnet-5@anthropic",
    provider: "anthropic",
    model: "claude-sonnet-5",
    status: 529,
    result: "retryable_status",
    ms: 81.5,
  },
  {
    deployment: "gpt-5@openai",
    provider: "openai",
    model: "gpt-5",
    status: 200,
    result: "ok",
    ms: 40,
  },
];

/** Keys in team red and none; five requests a minute apart, the newest a minute ago. */
async function setUp() {
  const h = await makeHarness();
  await h.deps.store.createTeam("red", {});
  const red = (await h.deps.store.createKey({ name: "r", team: "red" })).record.id;
  const loner = idOf(h.key);
  const at = (n: number) => Date.now() - (5 - n) * MINUTE;
  const rows = [
    { ...usageRow(red, "gpt-5", 1, at(0)), requestId: "req_0" },
    {
      ...usageRow(red, "claude-sonnet-5", 0.1234567, at(1)),
      requestId: "req_1",
      servedModel: "gpt-5",
      upstream: "openai",
      attempts: 2,
      attemptLog: FALLBACK,
      stream: true,
    },
    {
      ...usageRow(loner, "gpt-5-mini", 0, at(2)),
      requestId: "req_2",
      status: 429,
      outcome: "rejected" as const,
      attempts: 0,
      firstByteMs: null,
      upstream: "",
    },
    { ...usageRow(loner, "gpt-5", 2, at(3)), requestId: "req_3" },
    { ...usageRow(red, "gpt-5-mini", 3, at(4)), requestId: "req_4" },
  ];
  for (const row of rows) await h.deps.store.recordUsage(row);
  return { h, red, loner, rows };
}

const ids = (body: { data: Array<{ request_id: string }> }) => body.data.map((r) => r.request_id);

Deno.test("admin requests: admin keys only; newest first, each with its attempts", async () => {
  const { h, red, rows } = await setUp();
  try {
    assertError(await adminCall(h, "GET", "/admin/v1/requests", undefined, h.key), 403, {
      code: "admin_key_required",
    });
    const all = await adminCall(h, "GET", "/admin/v1/requests");
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body.object, "list");
    assert.deepEqual(ids(all.body), ["req_4", "req_3", "req_2", "req_1", "req_0"]);
    assert.deepEqual(all.body.data[3], {
      request_id: "req_1",
      key_id: red,
      model: "claude-sonnet-5",
      served_model: "gpt-5",
      provider: "openai",
      route: "/v1/chat/completions",
      status: 200,
      outcome: "ok",
      attempts: 2,
      attempt_log: FALLBACK,
      input_tokens: 10,
      output_tokens: 5,
      cost: 0.123457,
      latency_ms: 12,
      first_byte_ms: 3,
      stream: true,
      time: new Date(rows[1]!.time).toISOString(),
    });
    const refused = all.body.data[2];
    assert.deepEqual(
      [refused.outcome, refused.attempts, refused.attempt_log, refused.first_byte_ms],
      ["rejected", 0, [], null],
    );
  } finally {
    await h.close();
  }
});

Deno.test("admin requests: filters, window and limit", async () => {
  const { h, red, loner, rows } = await setUp();
  try {
    const list = async (query: string) => {
      const answer = await adminCall(h, "GET", `/admin/v1/requests?${query}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return ids(answer.body);
    };
    assert.deepEqual(await list(`key_id=${loner}`), ["req_3", "req_2"]);
    assert.deepEqual(await list("team=red"), ["req_4", "req_1", "req_0"]);
    assert.deepEqual(await list(`team=red&key_id=${red}&model=gpt-5-mini`), ["req_4"]);
    assert.deepEqual(await list("model=gpt-5"), ["req_3", "req_1", "req_0"], "served counts");
    assert.deepEqual(await list("outcome=rejected"), ["req_2"]);
    assert.deepEqual(await list("request_id=req_1"), ["req_1"]);
    assert.deepEqual(await list("limit=2"), ["req_4", "req_3"]);
    assert.deepEqual(await list("team=&key_id=&limit=1"), ["req_4"], "empty filters: none");
    const start = new Date(rows[1]!.time).toISOString();
    const end = new Date(rows[3]!.time).toISOString();
    assert.deepEqual(await list(`start=${start}&end=${end}`), ["req_2", "req_1"]);

    assertError(await adminCall(h, "GET", "/admin/v1/requests?outcome=fine"), 400, {
      message: /outcome/,
    });
    for (const limit of ["0", "1001", "many"]) {
      assertError(await adminCall(h, "GET", `/admin/v1/requests?limit=${limit}`), 400, {
        message: /limit/,
      });
    }
    assertError(
      await adminCall(h, "GET", "/admin/v1/requests?end=2020-01-01&start=2021-01-01"),
      400,
      {
        param: "start",
      },
    );
  } finally {
    await h.close();
  }
});

Deno.test("admin requests: a request the gateway served is listed by its x-request-id, with its attempt", async () => {
  const h = await makeHarness();
  try {
    const response = await h.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${h.key}` },
      json: { model: "gpt-5", messages: [{ role: "user", content: "hi" }] },
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
    const requestId = response.headers.get("x-request-id") ?? "";
    const { body } = await adminCall(h, "GET", `/admin/v1/requests?request_id=${requestId}`);
    assert.equal(body.data.length, 1);
    const [listed] = body.data;
    assert.deepEqual(
      [listed.key_id, listed.model, listed.served_model, listed.outcome, listed.provider],
      [idOf(h.key), "gpt-5", "gpt-5", "ok", "mock"],
    );
    assert.equal(listed.attempts, 1);
    const attempts = listed.attempt_log.map((
      a: Record<string, unknown>,
    ) => [a.deployment, a.provider, a.model, a.status, a.result]);
    assert.deepEqual(attempts, [["gpt-5@mock", "mock", "gpt-5", 200, "ok"]]);
  } finally {
    await h.close();
  }
});
