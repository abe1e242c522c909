/**
 * The tracing observer: one SERVER span per model request, from its arrival to its settle, and
 * one CLIENT span per upstream attempt, its child, from the attempt's start to its end (the
 * attempt that answered ends with the request, when its answer was delivered). The incoming
 * W3C trace context is the server span's parent; each attempt's upstream call carries a
 * `traceparent` naming its client span.
 *
 * The OpenTelemetry API arrives as an argument ({@link TraceKit}): this module imports it for
 * its types only, so loading it loads no OpenTelemetry code (`start_tracing.ts` imports the
 * packages when tracing is on).
 * @module
 */
import type * as OtelApi from "@opentelemetry/api";
import type { ResolvedModel } from "../../catalog/catalog.ts";
import type { AttemptRecord } from "../../store/store.ts";
import type { Observer, RequestObservation, RequestStart, SettledRequest } from "../observer.ts";
import {
  answerAttributes,
  attemptAttributes,
  attemptEndAttributes,
  clientSpanName,
  operationOf,
  providerNameOf,
  requestAttributes,
  serverSpanName,
  settledAttributes,
  type SpanAttributes,
} from "./attributes.ts";

/** What the observer uses of OpenTelemetry: the API module, a tracer, the W3C propagator. */
export interface TraceKit {
  api: typeof OtelApi;
  tracer: OtelApi.Tracer;
  propagator: OtelApi.TextMapPropagator;
}

/** Makes the tracing observer over `kit`. */
export function traceObserver(kit: TraceKit): Observer {
  return { begin: (start) => new RequestTrace(kit, start) };
}

/** Outcomes that are the upstream's failure. */
const UPSTREAM_FAILURES: ReadonlySet<string> = new Set([
  "upstream_error",
  "upstream_cut",
  "timeout",
]);

/** The wall-clock time (unix ms) of a `performance.now()` reading. Every span time is given
 * this way: left to itself the SDK takes `Date.now()` (whole ms) for some ends and starts,
 * and a client span could seem to start before its server span. */
function wallTime(at = performance.now()): number {
  return performance.timeOrigin + at;
}

/** The trace context the client sent, as the server span's parent (the root without one). A
 * malformed `traceparent` is ignored by the propagator: the request starts a new trace. */
function parentOf(kit: TraceKit, start: RequestStart): OtelApi.Context {
  const root = kit.api.ROOT_CONTEXT;
  if (start.traceparent === null) return root;
  const carrier: Record<string, string> = { traceparent: start.traceparent };
  if (start.tracestate !== null) carrier.tracestate = start.tracestate;
  return kit.propagator.extract(root, carrier, kit.api.defaultTextMapGetter);
}

/** One request's spans. */
class RequestTrace implements RequestObservation {
  readonly #kit: TraceKit;
  readonly #start: RequestStart;
  readonly #operation: string;
  readonly #server: OtelApi.Span;
  /** Client spans still open, by attempt number. */
  readonly #attempts = new Map<number, OtelApi.Span>();
  /** The attempt whose answer was delivered: its span ends with the request, with the usage. */
  #answered: number | null = null;
  /** Whether that attempt's end already named an error (an error status forwarded). */
  #answeredFailed = false;
  /** `gen_ai.provider.name` of the last attempt. */
  #provider: string | null = null;

  constructor(kit: TraceKit, start: RequestStart) {
    this.#kit = kit;
    this.#start = start;
    this.#operation = operationOf(start.route);
    this.#server = kit.tracer.startSpan(
      serverSpanName(start.route),
      {
        kind: kit.api.SpanKind.SERVER,
        startTime: wallTime(start.receivedAt),
        attributes: requestAttributes(start, this.#operation),
      },
      parentOf(kit, start),
    );
  }

  attemptStarted(model: ResolvedModel, attempt: number): Record<string, string> {
    const { api, tracer, propagator } = this.#kit;
    this.#provider = providerNameOf(model.deployment.provider.kind);
    const parent = api.trace.setSpan(api.ROOT_CONTEXT, this.#server);
    // Spans the sampler dropped are not recording: their attributes are not even computed,
    // but the upstream still gets the trace context (with its sampled flag off).
    const recording = this.#server.isRecording();
    const span = tracer.startSpan(
      clientSpanName(this.#operation, model.deployment.upstreamId),
      {
        kind: api.SpanKind.CLIENT,
        startTime: wallTime(),
        attributes: recording
          ? attemptAttributes(model, attempt, this.#operation, this.#start)
          : undefined,
      },
      parent,
    );
    this.#attempts.set(attempt, span);
    const headers: Record<string, string> = {};
    propagator.inject(api.trace.setSpan(api.ROOT_CONTEXT, span), headers, api.defaultTextMapSetter);
    return headers;
  }

  attemptEnded(record: AttemptRecord, attempt: number): void {
    const span = this.#attempts.get(attempt);
    if (span === undefined) return;
    let failed = false;
    if (span.isRecording()) {
      const { attributes, error } = attemptEndAttributes(record);
      span.setAttributes(attributes);
      if (error !== null) span.setStatus({ code: this.#kit.api.SpanStatusCode.ERROR });
      failed = error !== null;
    }
    if (record.result === "ok") {
      this.#answered = attempt;
      this.#answeredFailed = failed;
      return;
    }
    span.end(wallTime());
    this.#attempts.delete(attempt);
  }

  settled(request: SettledRequest): void {
    const server = this.#server;
    const recording = server.isRecording();
    const answer = recording ? answerAttributes(request) : {};
    const end = wallTime();
    for (const [attempt, span] of this.#attempts) {
      if (recording && attempt === this.#answered) this.#answer(span, answer, request);
      span.end(end);
    }
    this.#attempts.clear();
    if (recording) {
      const { attributes, error } = settledAttributes(request, this.#provider);
      server.setAttributes(attributes);
      if (error !== null) {
        server.setStatus({ code: this.#kit.api.SpanStatusCode.ERROR, message: error });
      }
    }
    server.end(end);
  }

  /** The answering attempt's span gets the usage; an answer that broke off upstream after its
   * first byte (cut, silent, an error event mid-stream) makes it an error too. */
  #answer(span: OtelApi.Span, answer: SpanAttributes, request: SettledRequest): void {
    span.setAttributes(answer);
    const outcome = request.record.outcome;
    if (this.#answeredFailed || !UPSTREAM_FAILURES.has(outcome)) return;
    span.setAttribute("error.type", outcome);
    span.setStatus({ code: this.#kit.api.SpanStatusCode.ERROR });
  }
}
