import assert from "node:assert/strict";
import type { SettledRequest } from "../observer.ts";
import type { AttemptRecord } from "../../store/store.ts";
import { testSettled, testUsageRecord } from "../test_requests.ts";
import { LabelCap, metricsObserver, statusClass } from "./metrics_observer.ts";
import { createSeries } from "./series.ts";
import { parseExposition, samplesOf, total } from "./testing.ts";

const row = testUsageRecord;

const settled = testSettled;

const attempt = (patch: Partial<AttemptRecord> = {}): AttemptRecord => ({
  deployment: "gpt-5@openai",
  provider: "openai",
  model: "gpt-5",
  status: 200,
  result: "ok",
  ms: 110,
  ...patch,
});

/** Runs `requests` through a fresh observer; the parsed exposition. */
async function observe(
  requests: Array<{ settled: SettledRequest; attempts?: AttemptRecord[] }>,
  keyLabels = false,
) {
  const series = createSeries(keyLabels);
  const observer = metricsObserver(series, { keyLabels });
  for (const r of requests) {
    const observation = observer.begin({} as never)!;
    (r.attempts ?? []).forEach((a, i) => observation.attemptEnded(a, i + 1));
    observation.settled(r.settled);
  }
  return parseExposition(await series.registry.metrics());
}

Deno.test("metrics: a streamed answer's request, duration, overhead, TTFT, tokens and cost", async () => {
  const x = await observe([{ settled: settled(row()), attempts: [attempt()] }]);
  const labels = {
    route: "/v1/chat/completions",
    model: "gpt-5",
    served_model: "gpt-5",
    provider: "openai",
  };
  assert.deepEqual(samplesOf(x, "gatehouse_requests_total"), [{
    name: "gatehouse_requests_total",
    labels: { ...labels, outcome: "ok", status_class: "2xx" },
    value: 1,
  }]);
  assert.equal(x.types.get("gatehouse_requests_total"), "counter");
  assert.equal(total(x, "gatehouse_request_duration_seconds_sum"), 0.3);
  assert.equal(total(x, "gatehouse_request_duration_seconds_count", { status_class: "2xx" }), 1);
  assert.equal(total(x, "gatehouse_gateway_overhead_seconds_sum"), 0.0002);
  // 0.2 ms falls in the 0.25 ms bucket, not the 0.1 ms one: the buckets resolve overhead.
  assert.equal(total(x, "gatehouse_gateway_overhead_seconds_bucket", { le: "0.0001" }), 0);
  assert.equal(total(x, "gatehouse_gateway_overhead_seconds_bucket", { le: "0.00025" }), 1);
  assert.equal(total(x, "gatehouse_gateway_overhead_seconds_bucket", { le: "5e-05" }), 0);
  assert.equal(total(x, "gatehouse_time_to_first_token_seconds_sum"), 0.12);
  const tokens = (type: string) => total(x, "gatehouse_tokens_total", { ...labels, type });
  assert.deepEqual(
    ["input", "output", "cached", "reasoning", "cache_write"].map(tokens),
    [100, 20, 40, 5, 0],
  );
  assert.equal(samplesOf(x, "gatehouse_tokens_total", { type: "cache_write" }).length, 0);
  assert.equal(total(x, "gatehouse_cost_usd_total", labels), 0.0125);
  assert.deepEqual(samplesOf(x, "gatehouse_upstream_attempts_total")[0]?.labels, {
    provider: "openai",
    deployment: "gpt-5@openai",
    model: "gpt-5",
    result: "ok",
    status_class: "2xx",
  });
  assert.equal(total(x, "gatehouse_upstream_attempt_duration_seconds_sum"), 0.11);
  assert.equal(total(x, "gatehouse_retries_total"), 0);
  assert.equal(total(x, "gatehouse_limit_rejections_total"), 0);
});

Deno.test("metrics: a whole answer has no TTFT; a refusal no overhead; a failure its class", async () => {
  const x = await observe([
    { settled: settled(row({ stream: false })) },
    {
      settled: settled(
        row({ status: 404, outcome: "rejected", attempts: 0, servedModel: "", upstream: "" }),
        { overheadMs: null, firstByteMs: null, refusal: "model_not_found" },
      ),
    },
    {
      settled: settled(row({ status: 502, outcome: "upstream_error" })),
      attempts: [attempt({ status: 0, result: "unreachable" })],
    },
  ]);
  assert.equal(total(x, "gatehouse_requests_total"), 3);
  assert.equal(
    total(x, "gatehouse_requests_total", { status_class: "4xx", outcome: "rejected" }),
    1,
  );
  assert.equal(total(x, "gatehouse_requests_total", { status_class: "5xx" }), 1);
  assert.equal(total(x, "gatehouse_time_to_first_token_seconds_count"), 0);
  assert.equal(total(x, "gatehouse_gateway_overhead_seconds_count"), 2);
  assert.equal(
    total(x, "gatehouse_upstream_attempts_total", { result: "unreachable", status_class: "none" }),
    1,
  );
  // model_not_found is not a limit.
  assert.equal(total(x, "gatehouse_limit_rejections_total"), 0);
});

Deno.test("metrics: retries and fallbacks are counted from the attempt log", async () => {
  const log = [
    attempt({ status: 503, result: "retryable_status" }),
    attempt({ deployment: "gpt-5@azure", provider: "azure" }),
    attempt({ deployment: "claude@anthropic", provider: "anthropic", model: "claude" }),
  ];
  const record = row({ attempts: 3, attemptLog: log, servedModel: "claude" });
  const x = await observe([{ settled: settled(record), attempts: log }]);
  assert.deepEqual(samplesOf(x, "gatehouse_retries_total").map((s) => [s.labels, s.value]), [
    [{ model: "gpt-5", deployment: "gpt-5@azure" }, 1],
  ]);
  assert.deepEqual(samplesOf(x, "gatehouse_fallbacks_total").map((s) => [s.labels, s.value]), [
    [{ model: "gpt-5", fallback_model: "claude", deployment: "claude@anthropic" }, 1],
  ]);
  assert.equal(total(x, "gatehouse_upstream_attempts_total"), 3);
});

Deno.test("metrics: limit refusals are counted by kind; a budget cut too", async () => {
  const refused = (code: string, limit: string | null = null) => ({
    settled: settled(row({ status: 429, outcome: "rejected", attempts: 0 }), {
      refusal: code,
      limit,
      overheadMs: null,
    }),
  });
  const x = await observe([
    refused("rate_limit_exceeded", "rpm"),
    refused("rate_limit_exceeded", "rpm"),
    refused("rate_limit_exceeded", "tpm"),
    refused("rate_limit_exceeded", "max_parallel"),
    refused("rate_limit_exceeded"),
    refused("insufficient_quota", "budget"),
    refused("model_not_allowed"),
    refused("limits_unavailable"),
    { settled: settled(row({ outcome: "budget_cut" })) },
  ]);
  const kinds = Object.fromEntries(
    samplesOf(x, "gatehouse_limit_rejections_total").map((s) => [s.labels.kind, s.value]),
  );
  assert.deepEqual(kinds, {
    rpm: 2,
    tpm: 1,
    max_parallel: 1,
    rate_limit: 1,
    budget: 1,
    model_not_allowed: 1,
    limits_unavailable: 1,
    budget_cut: 1,
  });
});

Deno.test("metrics: the key's name is a label only when asked", async () => {
  const without = await observe([{ settled: settled(row()) }]);
  assert.ok(samplesOf(without, "gatehouse_requests_total").every((s) => !("key" in s.labels)));
  const withKey = await observe([{ settled: settled(row()) }], true);
  assert.equal(total(withKey, "gatehouse_requests_total", { key: "alice" }), 1);
  assert.equal(total(withKey, "gatehouse_cost_usd_total", { key: "alice" }), 0.0125);
  assert.equal(total(withKey, "gatehouse_tokens_total", { key: "alice", type: "input" }), 100);
  // Never on a histogram: keys times buckets would be too many series.
  assert.ok(
    samplesOf(withKey, "gatehouse_request_duration_seconds_count").every((s) =>
      !("key" in s.labels)
    ),
  );
});

Deno.test("metrics: model labels are capped, so clients cannot choose unbounded values", () => {
  const cap = new LabelCap(2);
  assert.deepEqual(["a", "b", "c", "a", "d"].map((v) => cap.of(v)), [
    "a",
    "b",
    "other",
    "a",
    "other",
  ]);
  assert.deepEqual([200, 429, 503, 0, 499].map(statusClass), ["2xx", "4xx", "5xx", "none", "4xx"]);
});

Deno.test("metrics: the hot path stays within a few microseconds per request", () => {
  const series = createSeries(false);
  const observer = metricsObserver(series, { keyLabels: false });
  const request = settled(row({ attemptLog: [attempt()] }));
  const run = (n: number) => {
    for (let i = 0; i < n; i++) {
      const observation = observer.begin({} as never)!;
      observation.attemptEnded(request.record.attemptLog![0]!, 1);
      observation.settled(request);
    }
  };
  run(2_000);
  const n = 20_000;
  const start = performance.now();
  run(n);
  const micros = (performance.now() - start) * 1000 / n;
  // A loose bound for a shared CI machine; `deno task bench` measures it properly.
  assert.ok(micros < 25, `${micros.toFixed(2)} µs per request`);
});

Deno.test("metrics: made-up model names fill their own cap, never a catalog model's label", () => {
  const cap = new LabelCap(2, ["gpt-5"]);
  assert.equal(cap.of("made-up-1"), "made-up-1");
  assert.equal(cap.of("made-up-2"), "made-up-2");
  assert.equal(cap.of("made-up-3"), "other");
  assert.equal(cap.of("gpt-5"), "gpt-5", "a catalog id passes whatever came before");
  assert.equal(cap.of("made-up-1"), "made-up-1", "a value seen keeps its label");
});
