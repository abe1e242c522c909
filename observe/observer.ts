/**
 * What the gateway tells its observers — Prometheus metrics (`observe/metrics/`), OpenTelemetry
 * traces (`observe/tracing/`), the request log (`observe/logs/`) — about each model request.
 * The lifecycle (`gateway/lifecycle.ts`) is the one caller: it opens an observation when a
 * request arrives, reports each upstream attempt, and hands over the settled request with the
 * ledger row it wrote. With no observer configured nothing is made per request.
 *
 * Observers never see a prompt, an output or a secret: only what the ledger row holds, the key's
 * record (id, name, team), the client's user agent and the incoming trace context.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { AttemptRecord, KeyRecord, UsageRecord } from "../store/store.ts";

/** A model request as it arrives (after authentication). */
export interface RequestStart {
  requestId: string;
  /** Canonical route path (`/v1/chat/completions`). */
  route: string;
  key: KeyRecord;
  stream: boolean;
  /** `performance.now()` when the request reached the app. */
  receivedAt: number;
  /** The requested model id as the body names it ("" when it names none). */
  model: string;
  /** The body's output-token cap (`max_tokens`, `max_completion_tokens`, `max_output_tokens`). */
  maxTokens: number | null;
  userAgent: string | null;
  /** The incoming W3C `traceparent` / `tracestate` headers, when sent. */
  traceparent: string | null;
  tracestate: string | null;
}

/** How the answer was produced: forwarded on the same wire, translated, or made locally (a
 * local token count). Null when no answer was delivered. */
export type DeliveryMode = "passthrough" | "translated" | "local";

/** A request that settled: its ledger row and the timings only observers need. */
export interface SettledRequest {
  /** The ledger row, as written. */
  record: UsageRecord;
  key: KeyRecord;
  userAgent: string | null;
  /** The error code of a request refused before any upstream call (`rate_limit_exceeded`,
   * `budget_exceeded`, `model_not_allowed`, …), else null. */
  refusal: string | null;
  /** Which limit refused it, when a limit did (`rpm`, `tpm`, `max_parallel`, `budget`): the
   * three rate limits share one code. */
  limit: string | null;
  /** From arrival to settle, ms (sub-millisecond precision). */
  durationMs: number;
  /** From arrival to the first byte handed to the client, ms; null when none was. */
  firstByteMs: number | null;
  /** Gatehouse's own time until the first byte (or the end, without one): the duration minus
   * the time spent waiting on upstreams (each attempt from its call to its first chunk, or its
   * whole body) and in backoff between attempts, ms. Null for a request that made no upstream
   * call (a refusal, a local count: all of it is gatehouse's, and not overhead on a call). */
  overheadMs: number | null;
  /** Time spent waiting on upstreams until the answer's first chunk (all attempts), ms. */
  upstreamMs: number;
  /** The stop reasons the answer gave: a forwarded answer's as its upstream wrote them (`stop`,
   * `tool_calls`, `end_turn`, `completed`), a translated one's in gatehouse's own terms
   * (`end_turn`, `max_tokens`, `tool_use`, …); empty when none was seen. */
  finishReasons: string[];
  mode: DeliveryMode | null;
}

/** One request's observation, from arrival to settle. */
export interface RequestObservation {
  /** Attempt `attempt` (1-based) begins on `model`'s bound deployment. Returns headers to add
   * to the upstream call (the trace context), or undefined. */
  attemptStarted(model: ResolvedModel, attempt: number): Record<string, string> | undefined;
  /** Attempt `attempt` ended: failed (before anything reached the client), or its answer was
   * delivered to the end (called at settle). */
  attemptEnded(record: AttemptRecord, attempt: number): void;
  /** The request settled; called exactly once, last. */
  settled(request: SettledRequest): void;
}

/** Something that watches requests. */
export interface Observer {
  /** A request arrived; its observation, or null when this observer does not follow it. */
  begin(start: RequestStart): RequestObservation | null;
}

/** One observer over several: each sees every request it follows, and one that throws costs
 * the others nothing (`report` is told, once per failure). */
export function combineObservers(
  observers: readonly Observer[],
  report: (error: unknown) => void = () => {},
): Observer | undefined {
  if (observers.length === 0) return undefined;
  if (observers.length === 1) return observers[0];
  const each = <T>(items: readonly T[], call: (item: T) => void) => {
    for (const item of items) {
      try {
        call(item);
      } catch (error) {
        report(error);
      }
    }
  };
  return {
    begin(start) {
      const open: RequestObservation[] = [];
      each(observers, (observer) => {
        const observation = observer.begin(start);
        if (observation !== null) open.push(observation);
      });
      if (open.length === 0) return null;
      if (open.length === 1) return open[0]!;
      return {
        attemptStarted(model, attempt) {
          let headers: Record<string, string> | undefined;
          each(open, (o) => {
            const more = o.attemptStarted(model, attempt);
            if (more !== undefined) headers = { ...headers, ...more };
          });
          return headers;
        },
        attemptEnded: (record, attempt) => each(open, (o) => o.attemptEnded(record, attempt)),
        settled: (request) => each(open, (o) => o.settled(request)),
      };
    },
  };
}

/** The output-token cap a request body sets, whichever wire's field names it. */
export function maxTokensOf(body: Record<string, unknown>): number | null {
  const value = body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
