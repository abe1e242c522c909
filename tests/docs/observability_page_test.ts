/**
 * The "Observability" page: in the navigation, and true to the code — every metric series the
 * registry has, every span attribute the tracing code sets, every field of the request line, the
 * log formats and the OpenTelemetry settings read.
 */
import assert from "node:assert/strict";
import { createDocsApp } from "../../docs/mod.ts";
import { NAV } from "../../docs/layout.ts";
import { listedSeries } from "../../docs/pages/observability_metrics.ts";
import { loadCatalog } from "../../catalog/load.ts";
import { LOG_FORMATS } from "../../observe/logs/format.ts";
import {
  attemptAttributes,
  attemptEndAttributes,
  requestAttributes,
  settledAttributes,
} from "../../observe/tracing/attributes.ts";
import { requestLine } from "../../observe/logs/request_log.ts";
import type { RequestStart, SettledRequest } from "../../observe/observer.ts";
import { createSeries } from "../../observe/metrics/series.ts";
import type { AttemptRecord } from "../../store/store.ts";
import { testKeyRecord } from "../../store/test_records.ts";
import { squash } from "./docs_env.ts";

const catalog = await loadCatalog({ demo: true, env: () => undefined });

async function page(): Promise<string> {
  const app = createDocsApp({
    document: () => ({}),
    catalog,
    publicBaseUrl: "https://api.gatehouse.example",
    docsUrl: "https://docs.gatehouse.example",
  });
  const response = await app.request("/observability");
  assert.equal(response.status, 200);
  return squash(await response.text());
}

const KEY = testKeyRecord({
  id: "k1",
  name: "alice",
  hint: "gth_k1…",
  createdAt: 0,
  team: "research",
});

/** A request with every figure set, so every optional attribute and field is produced. */
const START: RequestStart = {
  requestId: "req_1",
  route: "/v1/chat/completions",
  key: KEY,
  stream: true,
  receivedAt: 0,
  model: "gpt-5",
  maxTokens: 100,
  userAgent: "ua",
  traceparent: null,
  tracestate: null,
};
const SETTLED: SettledRequest = {
  record: {
    requestId: "req_1",
    keyId: "k1",
    model: "gpt-5",
    servedModel: "gpt-5",
    upstream: "openai",
    upstreamId: "chatcmpl-1",
    route: "/v1/chat/completions",
    status: 429,
    outcome: "rejected",
    attempts: 1,
    inputTokens: 10,
    outputTokens: 5,
    cachedTokens: 2,
    cacheWriteTokens: 1,
    reasoningTokens: 3,
    images: 1,
    cost: 0.01,
    latencyMs: 10,
    firstByteMs: 5,
    stream: true,
    time: 0,
  },
  key: KEY,
  userAgent: "ua",
  refusal: "rate_limit_exceeded",
  limit: "rpm",
  durationMs: 10,
  firstByteMs: 5,
  overheadMs: 0.5,
  upstreamMs: 4,
  finishReasons: ["stop"],
  mode: "passthrough",
};

const FAILED_ATTEMPT: AttemptRecord = {
  deployment: "gpt-5@openai",
  provider: "openai",
  model: "gpt-5",
  status: 503,
  result: "retryable_status",
  ms: 1,
};

Deno.test("observability page: in the navigation", () => {
  assert.ok(NAV.some((item) => JSON.stringify(item).includes("/observability")));
});

Deno.test("observability page: every series, with its labels", async () => {
  const text = await page();
  const series = listedSeries();
  assert.equal(series.length, createSeries(true).registry.getMetricsAsArray().length);
  for (const s of series) {
    assert.ok(text.includes(`<code>${s.name}</code>`), s.name);
    for (const label of s.labels) assert.ok(text.includes(`<code>${label}</code>`), label);
  }
  assert.match(text, /METRICS_PORT/);
  assert.match(text, /GATEHOUSE_METRICS_KEY_LABELS/);
});

Deno.test("observability page: every span attribute the tracing code sets", async () => {
  const text = await page();
  const model = catalog.resolve("gpt-5");
  assert.ok(model !== null);
  const names = new Set([
    ...Object.keys(requestAttributes(START, "chat")),
    ...Object.keys(attemptAttributes(model, 1, "chat", START)),
    ...Object.keys(attemptEndAttributes(FAILED_ATTEMPT).attributes),
    ...Object.keys(settledAttributes(SETTLED, "openai").attributes),
    "error.type",
    "server.address",
    "server.port",
  ]);
  for (const name of names) assert.ok(text.includes(`<code>${name}</code>`), name);
});

Deno.test("observability page: the request line's fields, both formats, the OTel settings", async () => {
  const text = await page();
  for (const field of Object.keys(requestLine(SETTLED))) {
    assert.ok(text.includes(`<code>${field}</code>`), field);
  }
  for (const format of LOG_FORMATS) assert.ok(text.includes(`<code>${format}</code>`), format);
  for (
    const setting of [
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
      "OTEL_EXPORTER_OTLP_HEADERS",
      "OTEL_SERVICE_NAME",
      "OTEL_TRACES_SAMPLER",
      "GATEHOUSE_LOG_FORMAT",
    ]
  ) assert.ok(text.includes(setting), setting);
  assert.match(text, /href="\/dashboard"/);
});
