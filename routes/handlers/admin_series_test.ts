import assert from "node:assert/strict";
import { makeHarness } from "../../tests/harness.ts";
import { adminCall, assertError, usageRow } from "./admin_test_kit.ts";
import { seriesWindow, seriesWire } from "./admin_series.ts";

const HOUR = 3_600_000;

Deno.test("admin series: admin keys only; an empty ledger is every bucket at zero", async () => {
  const h = await makeHarness();
  try {
    assertError(await adminCall(h, "GET", "/admin/v1/usage/series", undefined, h.key), 403, {
      code: "admin_key_required",
    });
    assertError(await adminCall(h, "GET", "/admin/v1/usage/series?range=1y"), 400, {
      param: "range",
    });
    const answer = await adminCall(h, "GET", "/admin/v1/usage/series?range=7d");
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const body = answer.body;
    assert.equal(body.object, "usage_series");
    assert.equal(body.range, "7d");
    assert.equal(body.group_by, "model");
    assert.equal(body.bucket_seconds, 6 * 3600);
    assert.equal(body.buckets.length, 28);
    assert.deepEqual(body.series, []);
    assert.deepEqual(body.buckets[0], {
      start: body.start,
      requests: 0,
      errors: 0,
      cost: 0,
      input_tokens: 0,
      output_tokens: 0,
      latency_ms: { p50: null, p95: null },
      ttft_ms: { p50: null, p95: null },
    });
    assert.ok(Date.parse(body.end) > Date.now(), "the last bucket holds now");
  } finally {
    await h.close();
  }
});

Deno.test("admin series: bucket totals and per-group arrays equal the ledger", async () => {
  const h = await makeHarness();
  try {
    const store = h.deps.store;
    await store.createTeam("red", {});
    const red = (await store.createKey({ name: "r", team: "red" })).record.id;
    const now = Date.now();
    const rows = [
      usageRow(red, "gpt-5", 1, now),
      usageRow(red, "gpt-5", 2, now - 2 * HOUR),
      { ...usageRow("other", "claude-sonnet-5", 4, now - 3 * HOUR), outcome: "timeout" as const },
      usageRow("other", "gpt-5", 100, now - 25 * HOUR),
    ];
    for (const row of rows) await store.recordUsage(row);
    const answer = await adminCall(h, "GET", "/admin/v1/usage/series?range=24h&group_by=team");
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const { buckets, series } = answer.body as {
      buckets: Array<{ requests: number; errors: number; cost: number }>;
      series: Array<{ group: string | null; cost: number[]; requests: number[] }>;
    };
    assert.equal(buckets.length, 24);
    const total = (pick: (b: typeof buckets[number]) => number) =>
      buckets.reduce((sum, b) => sum + pick(b), 0);
    assert.equal(total((b) => b.requests), 3);
    assert.equal(total((b) => b.errors), 1);
    assert.equal(total((b) => b.cost), 7);
    assert.deepEqual(series.map((s) => s.group), ["", "red"]);
    assert.equal(series[1]!.cost.reduce((a, b) => a + b, 0), 3);
    assert.equal(series[1]!.cost[23], 1, "the current hour is the last bucket");
  } finally {
    await h.close();
  }
});

Deno.test("seriesWindow: whole UTC buckets, the last one holding now", () => {
  const now = Date.UTC(2026, 10, 26, 12, 34);
  const day = seriesWindow("24h", now);
  assert.equal(day.end, Date.UTC(2026, 10, 26, 13));
  assert.equal(day.start, Date.UTC(2026, 10, 25, 13));
  const month = seriesWindow("30d", now);
  assert.equal(month.end, Date.UTC(2026, 10, 27));
  assert.equal(month.buckets, 30);
});

Deno.test("seriesWire: the store's cells land in their bucket and group", () => {
  const window = seriesWindow("24h", Date.UTC(2026, 0, 1, 5, 30));
  const wire = seriesWire({
    groups: ["a", null],
    cells: [
      {
        bucket: 23,
        group: "a",
        requests: 2,
        errors: 1,
        cost: 0.1,
        inputTokens: 3,
        outputTokens: 4,
      },
      {
        bucket: 23,
        group: null,
        requests: 1,
        errors: 0,
        cost: 0.2,
        inputTokens: 1,
        outputTokens: 1,
      },
    ],
    stats: [{ bucket: 23, latencyP50: 5, latencyP95: 9, firstByteP50: null, firstByteP95: null }],
  }, window);
  const last = wire.buckets[23]!;
  assert.equal(last.requests, 3);
  assert.equal(last.cost, 0.3);
  assert.deepEqual(last.latency_ms, { p50: 5, p95: 9 });
  assert.deepEqual(wire.series.map((s) => [s.group, s.requests[23], s.requests[0]]), [
    ["a", 2, 0],
    [null, 1, 0],
  ]);
});

Deno.test("admin status: requests in flight and streams open, now", async () => {
  const h = await makeHarness();
  try {
    assertError(await adminCall(h, "GET", "/admin/v1/status", undefined, h.key), 403);
    const answer = await adminCall(h, "GET", "/admin/v1/status");
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.object, "status");
    assert.equal(answer.body.in_flight, 0);
    assert.equal(answer.body.streams_open, 0);
    assert.equal(answer.body.draining, false);
    assert.equal(answer.body.store, h.deps.store.kind);
  } finally {
    await h.close();
  }
});
