/**
 * Rig for the tracing tests: the reliability rig's gateway over its fault fakes, with tracing
 * started as `OTEL_*` settings ask (`observe/tracing/start_tracing.ts`) and exporting to a local
 * OTLP/HTTP receiver (`tracing_receiver.ts`); and the spans of one request.
 * @module
 */
import assert from "node:assert/strict";
import type { Logger } from "../../gateway/exchange.ts";
import { combineObservers, type Observer } from "../../observe/observer.ts";
import { startTracing, type Tracing } from "../../observe/tracing/start_tracing.ts";
import { type Rig, startRig } from "../reliability/reliability_rig.ts";
import { type ReceivedSpan, type Receiver, startReceiver } from "./tracing_receiver.ts";

/** A logged line. */
export interface Line {
  level: "info" | "warn" | "error";
  message: string;
  fields?: Record<string, unknown>;
}

/** A logger that keeps its lines. */
export function keptLog(): Logger & { lines: Line[] } {
  const lines: Line[] = [];
  return {
    lines,
    info: (message, fields) => void lines.push({ level: "info", message, fields }),
    warn: (message, fields) => void lines.push({ level: "warn", message, fields }),
    error: (message, fields) => void lines.push({ level: "error", message, fields }),
  };
}

/** The spans of one request: its server span and its client spans by attempt. */
export interface RequestSpans {
  server: ReceivedSpan;
  clients: ReceivedSpan[];
}

/** A gateway with tracing on. */
export interface TracingRig {
  rig: Rig;
  receiver: Receiver;
  tracing: Tracing;
  log: ReturnType<typeof keptLog>;
  /** Makes `observer` (with the harness's own observers) the gateway's. */
  use(observer: Observer): void;
  /** Waits for the server span of request `requestId` and `clients` client spans under it. */
  spansOf(requestId: string, clients: number): Promise<RequestSpans>;
  close(): Promise<void>;
}

/** The OTEL settings of the tests: a fast batch, an export header. */
export function otelEnv(endpoint: string): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_HEADERS: "x-collector-token=test%20token",
    // OTEL_SERVICE_NAME wins over a service.name in OTEL_RESOURCE_ATTRIBUTES.
    OTEL_SERVICE_NAME: "gatehouse-test",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test,service.name=ignored",
    OTEL_BSP_SCHEDULE_DELAY: "20",
  };
}

/** Starts the fakes, the gateway, the receiver and tracing (`env` adds OTEL settings). */
export async function startTracingRig(env: Record<string, string> = {}): Promise<TracingRig> {
  const rig = await startRig({ GATEHOUSE_RETRIES: "2", GATEHOUSE_UPSTREAM_TIMEOUT_MS: "2000" });
  const receiver = startReceiver();
  const log = keptLog();
  const settings: Record<string, string> = { ...otelEnv(receiver.url), ...env };
  const tracing = await startTracing((name) => settings[name], log);
  assert.ok(tracing, "tracing started");
  const own = rig.h.deps.observer;
  const use = (observer: Observer) => {
    rig.h.deps.observer = combineObservers(own === undefined ? [observer] : [own, observer]);
  };
  use(tracing.observer);
  return {
    rig,
    receiver,
    tracing,
    log,
    use,
    async spansOf(requestId, clients) {
      const spans = await receiver.until((all) => {
        const server = all.find((s) => s.attributes["gatehouse.request_id"] === requestId);
        return server !== undefined &&
          all.filter((s) => s.parentSpanId === server.spanId).length >= clients;
      });
      const server = spans.find((s) => s.attributes["gatehouse.request_id"] === requestId)!;
      const clients_ = spans
        .filter((s) => s.parentSpanId === server.spanId)
        .sort((a, b) =>
          Number(a.attributes["gatehouse.attempt"]) - Number(b.attributes["gatehouse.attempt"])
        );
      return { server, clients: clients_ };
    },
    async close() {
      await tracing.close();
      await rig.close();
      await receiver.close();
    },
  };
}

/** The `traceparent` that names `span` (sampled). */
export function traceparentOf(span: ReceivedSpan): string {
  return `00-${span.traceId}-${span.spanId}-01`;
}
