/**
 * The trace export settings, read from the standard `OTEL_*` environment variables. This module
 * loads no OpenTelemetry code: with no OTLP endpoint set, {@link readTracingSettings} returns
 * null and nothing else of tracing is loaded or started.
 *
 * The OpenTelemetry JS SDK (3.x) reads only some of these itself (the exporter reads its
 * endpoint, headers, timeout, compression and TLS files from `process.env`; the tracer provider
 * reads no sampler or batch setting), so gatehouse reads the endpoint, headers, timeout, sampler,
 * batch and resource settings here, from the instance's `Env`, and hands them to the SDK
 * explicitly: testable without touching the process environment. The exporter still reads
 * `OTEL_EXPORTER_OTLP_[TRACES_]COMPRESSION` and the `_CERTIFICATE` / `_CLIENT_KEY` /
 * `_CLIENT_CERTIFICATE` files from the process environment itself. Invalid values fall back to
 * the spec's defaults with a warning, as the OpenTelemetry environment-variable spec asks.
 * @module
 */
import type { Env } from "../../gateway/config.ts";

/** `OTEL_TRACES_SAMPLER` values gatehouse supports (the spec's built-in samplers). */
export const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

/** One of {@link SAMPLERS}. */
export type SamplerName = typeof SAMPLERS[number];

/** The batch span processor's settings (`OTEL_BSP_*`). */
export interface BatchSettings {
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
  maxQueueSize: number;
  maxExportBatchSize: number;
}

/** Everything the trace exporter is started with. */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL (`…/v1/traces`). */
  url: string;
  /** Headers sent with every export (`OTEL_EXPORTER_OTLP_HEADERS`, then `_TRACES_HEADERS`). */
  headers: Record<string, string>;
  /** Export request timeout, ms. */
  timeoutMillis: number;
  sampler: SamplerName;
  /** `OTEL_TRACES_SAMPLER_ARG` for the ratio samplers (0..1). */
  ratio: number;
  batch: BatchSettings;
  /** Resource attributes: `OTEL_RESOURCE_ATTRIBUTES`, then `service.name`. */
  resource: Record<string, string>;
}

/** What the environment asks for: the settings (null: traces are off) and what was ignored
 * or fell back to a default, for one warning each at start. */
export interface TracingChoice {
  settings: TracingSettings | null;
  warnings: string[];
}

/** `key=value,key=value` with percent-encoded values (the W3C Baggage form the spec uses for
 * `OTEL_RESOURCE_ATTRIBUTES` and `OTEL_EXPORTER_OTLP_HEADERS`). A malformed pair is skipped. */
export function parseKeyValues(
  text: string | undefined,
  warnings: string[],
  name: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    if (pair.trim() === "") continue;
    const at = pair.indexOf("=");
    const key = at < 0 ? "" : pair.slice(0, at).trim();
    try {
      if (key === "") throw new Error("no key");
      out[decodeURIComponent(key)] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // The pair may be a secret (a header value): the warning names only the variable.
      warnings.push(`${name}: a malformed entry was ignored`);
    }
  }
  return out;
}

function positiveInteger(env: Env, name: string, fallback: number, warnings: string[]): number {
  const raw = env(name)?.trim();
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (Number.isInteger(value) && value > 0) return value;
  warnings.push(`${name}=${raw} is not a positive integer: ${fallback} is used`);
  return fallback;
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}

/** The traces URL: the signal's own endpoint as given, else the base endpoint + `/v1/traces`. */
function tracesUrl(env: Env): string | null {
  const own = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")?.trim();
  if (own) return own;
  const base = env("OTEL_EXPORTER_OTLP_ENDPOINT")?.trim();
  if (!base) return null;
  return `${base.replace(/\/+$/, "")}/v1/traces`;
}

function samplerOf(env: Env, warnings: string[]): { sampler: SamplerName; ratio: number } {
  const raw = env("OTEL_TRACES_SAMPLER")?.trim().toLowerCase();
  let sampler: SamplerName = "parentbased_always_on";
  if (raw) {
    if ((SAMPLERS as readonly string[]).includes(raw)) sampler = raw as SamplerName;
    else warnings.push(`OTEL_TRACES_SAMPLER=${raw} is not supported: ${sampler} is used`);
  }
  const arg = env("OTEL_TRACES_SAMPLER_ARG")?.trim();
  let ratio = 1;
  if (arg && sampler.endsWith("traceidratio")) {
    const value = Number(arg);
    if (Number.isFinite(value) && value >= 0 && value <= 1) ratio = value;
    else warnings.push(`OTEL_TRACES_SAMPLER_ARG=${arg} is not a ratio in [0, 1]: 1 is used`);
  }
  return { sampler, ratio };
}

/** Whether the `OTEL_TRACES_EXPORTER` list asks for OTLP (unset: it does). */
function wantsOtlp(env: Env, warnings: string[]): boolean {
  const raw = env("OTEL_TRACES_EXPORTER")?.trim().toLowerCase();
  if (!raw) return true;
  const names = raw.split(",").map((name) => name.trim());
  if (names.includes("none")) return false;
  if (names.includes("otlp")) {
    const others = names.filter((name) => name !== "otlp");
    if (others.length > 0) warnings.push(`OTEL_TRACES_EXPORTER: only otlp is supported`);
    return true;
  }
  warnings.push(`OTEL_TRACES_EXPORTER=${raw}: only otlp is supported; traces are off`);
  return false;
}

/**
 * The trace settings `env` asks for; null settings when traces are off: no OTLP endpoint,
 * `OTEL_SDK_DISABLED=true`, or `OTEL_TRACES_EXPORTER` without `otlp` (`none`).
 */
export function readTracingSettings(env: Env): TracingChoice {
  const url = tracesUrl(env);
  const warnings: string[] = [];
  if (url === null || isTrue(env("OTEL_SDK_DISABLED"))) return { settings: null, warnings };
  if (!wantsOtlp(env, warnings)) return { settings: null, warnings };
  const protocol = env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? env("OTEL_EXPORTER_OTLP_PROTOCOL");
  if (protocol && protocol.trim() !== "http/json") {
    warnings.push(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: gatehouse exports http/json`);
  }
  const headers = {
    ...parseKeyValues(env("OTEL_EXPORTER_OTLP_HEADERS"), warnings, "OTEL_EXPORTER_OTLP_HEADERS"),
    ...parseKeyValues(
      env("OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
      warnings,
      "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
    ),
  };
  const timeoutName = env("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT") === undefined
    ? "OTEL_EXPORTER_OTLP_TIMEOUT"
    : "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT";
  const batch: BatchSettings = {
    scheduledDelayMillis: positiveInteger(env, "OTEL_BSP_SCHEDULE_DELAY", 5000, warnings),
    exportTimeoutMillis: positiveInteger(env, "OTEL_BSP_EXPORT_TIMEOUT", 30000, warnings),
    maxQueueSize: positiveInteger(env, "OTEL_BSP_MAX_QUEUE_SIZE", 2048, warnings),
    maxExportBatchSize: positiveInteger(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512, warnings),
  };
  if (batch.maxExportBatchSize > batch.maxQueueSize) {
    warnings.push("OTEL_BSP_MAX_EXPORT_BATCH_SIZE exceeds OTEL_BSP_MAX_QUEUE_SIZE: it is lowered");
    batch.maxExportBatchSize = batch.maxQueueSize;
  }
  const resource = parseKeyValues(
    env("OTEL_RESOURCE_ATTRIBUTES"),
    warnings,
    "OTEL_RESOURCE_ATTRIBUTES",
  );
  // OTEL_SERVICE_NAME wins over a service.name in OTEL_RESOURCE_ATTRIBUTES (the spec's order).
  const serviceName = env("OTEL_SERVICE_NAME")?.trim();
  if (serviceName) resource["service.name"] = serviceName;
  else resource["service.name"] ??= "gatehouse";
  const settings: TracingSettings = {
    url,
    headers,
    timeoutMillis: positiveInteger(env, timeoutName, 10000, warnings),
    ...samplerOf(env, warnings),
    batch,
    resource,
  };
  return { settings, warnings };
}
