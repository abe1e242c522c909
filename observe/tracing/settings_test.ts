/** The `OTEL_*` settings tracing reads: when it is off, the traces URL, headers, sampler, batch
 * and resource settings, and the fallbacks with their warnings. */
import assert from "node:assert/strict";
import { parseKeyValues, readTracingSettings } from "./settings.ts";
import { redactUrl } from "../../cluster/settings.ts";

const read = (env: Record<string, string>) => readTracingSettings((name) => env[name]);
const BASE = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" };

Deno.test("tracing settings: off without an endpoint, when disabled, or with exporter none", () => {
  assert.deepEqual(read({}), { settings: null, warnings: [] });
  assert.equal(read({ ...BASE, OTEL_SDK_DISABLED: "TRUE" }).settings, null);
  assert.notEqual(read({ ...BASE, OTEL_SDK_DISABLED: "false" }).settings, null);
  assert.equal(read({ ...BASE, OTEL_TRACES_EXPORTER: "none" }).settings, null);
  const console = read({ ...BASE, OTEL_TRACES_EXPORTER: "console" });
  assert.equal(console.settings, null);
  assert.match(console.warnings[0]!, /only otlp is supported; traces are off/);
  assert.notEqual(read({ ...BASE, OTEL_TRACES_EXPORTER: "otlp" }).settings, null);
});

Deno.test("tracing settings: the traces URL and the defaults", () => {
  const { settings, warnings } = read(BASE);
  assert.deepEqual(warnings, []);
  assert.deepEqual(settings, {
    url: "http://collector:4318/v1/traces",
    headers: {},
    timeoutMillis: 10000,
    sampler: "parentbased_always_on",
    ratio: 1,
    batch: {
      scheduledDelayMillis: 5000,
      exportTimeoutMillis: 30000,
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
    },
    resource: { "service.name": "gatehouse" },
  });
  const own = read({ ...BASE, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://x.example/traces" });
  assert.equal(own.settings?.url, "https://x.example/traces", "the signal's own URL, as given");
});

Deno.test("tracing settings: headers, timeout, sampler, batch and resource", () => {
  const { settings, warnings } = read({
    ...BASE,
    OTEL_EXPORTER_OTLP_HEADERS: "authorization=Basic%20abc, x-a = 1",
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-a=2",
    OTEL_EXPORTER_OTLP_TIMEOUT: "3000",
    OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "2000",
    OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
    OTEL_TRACES_SAMPLER_ARG: "0.25",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_BSP_EXPORT_TIMEOUT: "1000",
    OTEL_BSP_MAX_QUEUE_SIZE: "64",
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "16",
    OTEL_RESOURCE_ATTRIBUTES: "service.name=from-attrs,deployment.environment.name=prod%2Feu",
  });
  assert.deepEqual(warnings, []);
  assert.deepEqual(settings?.headers, { authorization: "Basic abc", "x-a": "2" });
  assert.equal(settings?.timeoutMillis, 2000);
  assert.equal(settings?.sampler, "parentbased_traceidratio");
  assert.equal(settings?.ratio, 0.25);
  assert.deepEqual(settings?.batch, {
    scheduledDelayMillis: 100,
    exportTimeoutMillis: 1000,
    maxQueueSize: 64,
    maxExportBatchSize: 16,
  });
  assert.deepEqual(settings?.resource, {
    "service.name": "from-attrs",
    "deployment.environment.name": "prod/eu",
  });
  const named = read({
    ...BASE,
    OTEL_SERVICE_NAME: "gw",
    OTEL_RESOURCE_ATTRIBUTES: "service.name=x",
  });
  assert.equal(named.settings?.resource["service.name"], "gw", "OTEL_SERVICE_NAME wins");
});

Deno.test("tracing settings: invalid values fall back with one warning each, naming no secret", () => {
  const { settings, warnings } = read({
    ...BASE,
    OTEL_TRACES_SAMPLER: "jaeger_remote",
    OTEL_BSP_SCHEDULE_DELAY: "-5",
    OTEL_BSP_MAX_QUEUE_SIZE: "10",
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "20",
    OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
    OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%ZZsecret",
  });
  assert.equal(settings?.sampler, "parentbased_always_on");
  assert.equal(settings?.batch.scheduledDelayMillis, 5000);
  assert.equal(settings?.batch.maxExportBatchSize, 10);
  assert.deepEqual(settings?.headers, {});
  assert.equal(warnings.length, 5, warnings.join("\n"));
  assert.ok(!warnings.join("\n").includes("secret"), "a malformed header is not quoted");
  const ratio = read({
    ...BASE,
    OTEL_TRACES_SAMPLER: "traceidratio",
    OTEL_TRACES_SAMPLER_ARG: "2",
  });
  assert.equal(ratio.settings?.ratio, 1);
  assert.equal(ratio.warnings.length, 1);
});

Deno.test("tracing settings: key=value lists, and the collector's URL as it is logged", () => {
  const warnings: string[] = [];
  assert.deepEqual(parseKeyValues("a=1,,b=x%3Dy, =3,c", warnings, "X"), { a: "1", b: "x=y" });
  assert.equal(warnings.length, 2);
  assert.equal(
    redactUrl("https://user:pass@collector:4318/v1/traces?token=t#f"),
    "https://collector:4318/v1/traces",
  );
});
