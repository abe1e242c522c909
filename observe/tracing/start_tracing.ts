/**
 * Starts OpenTelemetry tracing when the environment asks for it (an OTLP endpoint; see
 * `settings.ts`): a tracer provider with the configured sampler and a batch span processor
 * exporting OTLP/HTTP (JSON) to the collector, and the observer that makes the spans
 * (`trace_observer.ts`).
 *
 * The OpenTelemetry packages are imported here, dynamically, and only once settings exist: a
 * gateway without an endpoint loads none of their code (`tests/observe/tracing_lazy_test.ts`).
 * The provider is this instance's own (nothing is registered globally): each worker thread
 * exports its own spans.
 * @module
 */
import type * as OtelApi from "@opentelemetry/api";
import type * as OtelSdk from "@opentelemetry/sdk-trace";
import type { Env } from "../../gateway/config.ts";
import type { Logger } from "../../gateway/exchange.ts";
import type { Observer } from "../observer.ts";
import { readTracingSettings, type TracingSettings } from "./settings.ts";
import { redactUrl } from "../../cluster/settings.ts";
import { traceObserver } from "./trace_observer.ts";

/** Running tracing: its observer and how to stop it. */
export interface Tracing {
  observer: Observer;
  /** Exports the spans still queued, then stops the provider (at most {@link CLOSE_MS}, or
   * {@link CLOSE_FAILING_MS} while exports are failing). */
  close(): Promise<void>;
}

/** How long `close` waits for the last export before it gives up on it. */
export const CLOSE_MS = 5_000;
/** How long it waits when the last export failed: the collector is likely down, and the
 * exporter would retry until its timeout; the shutdown does not wait on that. */
export const CLOSE_FAILING_MS = 500;

/** The instrumentation scope of gatehouse's spans. */
const SCOPE = "gatehouse";

function samplerOf(sdk: typeof OtelSdk, settings: TracingSettings): OtelSdk.Sampler {
  const ratio = () => new sdk.TraceIdRatioBasedSampler(settings.ratio);
  switch (settings.sampler) {
    case "always_on":
      return new sdk.AlwaysOnSampler();
    case "always_off":
      return new sdk.AlwaysOffSampler();
    case "traceidratio":
      return ratio();
    case "parentbased_always_off":
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new sdk.ParentBasedSampler({ root: ratio() });
    case "parentbased_always_on":
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() });
  }
}

/**
 * An exporter that reports failures once: the first failed export after a success (or at the
 * start) logs one warning, later failures nothing, and the next success one info line. The SDK
 * itself drops a failed batch silently (no diagnostic logger is registered), and a request never
 * waits on an export: the batch processor exports off the request path.
 */
function quietExporter(
  inner: OtelSdk.SpanExporter,
  log: Logger,
  url: string,
  successCode: number,
): OtelSdk.SpanExporter & { readonly failing: boolean } {
  let failing = false;
  return {
    get failing() {
      return failing;
    },
    export(spans, done) {
      inner.export(spans, (result) => {
        if (result.code !== successCode && !failing) {
          failing = true;
          log.warn(
            "tracing: exporting spans failed; they are dropped until the collector answers",
            {
              url,
              error: result.error?.message ?? "export failed",
            },
          );
        } else if (result.code === successCode && failing) {
          failing = false;
          log.info("tracing: exporting spans works again", { url });
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/** Resolves after `ms`, or when the returned promise's `cancel` is called. */
function timer(ms: number): { done: Promise<"timeout">; cancel(): void } {
  let id: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<"timeout">((resolve) => (id = setTimeout(() => resolve("timeout"), ms)));
  return { done, cancel: () => clearTimeout(id) };
}

/**
 * Starts tracing as `env` asks; null when it asks for none (then nothing is imported). A setting
 * that is ignored or falls back to its default is logged once; a failure to start (the packages
 * cannot be loaded) is logged and leaves traces off: observability never stops the gateway.
 */
export async function startTracing(env: Env, log: Logger): Promise<Tracing | null> {
  const { settings, warnings } = readTracingSettings(env);
  for (const warning of warnings) log.warn(`tracing: ${warning}`);
  if (settings === null) return null;
  try {
    return await start(settings, log);
  } catch (error) {
    log.error("tracing: could not start; traces are off", { error: String(error) });
    return null;
  }
}

async function start(settings: TracingSettings, log: Logger): Promise<Tracing> {
  const url = redactUrl(settings.url);
  const [api, core, resources, sdk, otlp] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
  ]);
  const exporter = new otlp.OTLPTraceExporter({
    url: settings.url,
    headers: settings.headers,
    timeoutMillis: settings.timeoutMillis,
  });
  const attributes: Record<string, string> = {
    // One id per instance (per worker thread), unless the operator set one.
    "service.instance.id": crypto.randomUUID(),
    ...settings.resource,
  };
  const quiet = quietExporter(exporter, log, url, core.ExportResultCode.SUCCESS);
  const provider = new sdk.TracerProvider({
    resource: resources.defaultResource().merge(resources.resourceFromAttributes(attributes)),
    sampler: samplerOf(sdk, settings),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: quiet,
        ...settings.batch,
      }),
    ],
  });
  const tracer: OtelApi.Tracer = provider.getTracer(SCOPE);
  const observer = traceObserver({ api, tracer, propagator: new core.W3CTraceContextPropagator() });
  log.info("tracing: exporting spans over OTLP/HTTP", {
    url,
    sampler: settings.sampler,
  });
  let closing: Promise<void> | null = null;
  return {
    observer,
    close() {
      closing ??= (async () => {
        const wait = timer(quiet.failing ? CLOSE_FAILING_MS : CLOSE_MS);
        const shut = provider.shutdown().then(() => "done" as const, () => "done" as const);
        const ended = await Promise.race([shut, wait.done]);
        wait.cancel();
        // While exports fail, their warning was given already.
        if (ended === "timeout" && !quiet.failing) {
          log.warn("tracing: the last spans were not exported in time", { url });
        }
      })();
      return closing;
    },
  };
}
