/**
 * A request's side of the observers (`observe/observer.ts`): the high-resolution timings the
 * overhead figure needs, the trace headers of the current attempt, the stop reasons seen, and
 * the hand-over at settle. Made by the lifecycle only when an observer follows the request, so
 * a gateway without observers pays nothing per request.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { AttemptRecord, UsageRecord } from "../store/store.ts";
import {
  type DeliveryMode,
  maxTokensOf,
  type Observer,
  type RequestObservation,
  type RequestStart,
} from "../observe/observer.ts";
import type { Logger, RouteRequest } from "./exchange.ts";

/** Opens `observer`'s observation of a request; null when it does not follow it (or failed to
 * begin: logged, and the request goes on unobserved). */
export function observeRequest(
  observer: Observer,
  requestId: string,
  request: RouteRequest,
  stream: boolean,
  log: Logger,
): ObservedRequest | null {
  const start = requestStart(requestId, request, stream);
  let observation: RequestObservation | null;
  try {
    observation = observer.begin(start);
  } catch (error) {
    observerFailed(log, requestId, error);
    return null;
  }
  return observation === null ? null : new ObservedRequest(observation, start, log);
}

function observerFailed(log: Logger, requestId: string, error: unknown): void {
  log.error("an observer failed", { requestId, error: String(error) });
}

function requestStart(requestId: string, request: RouteRequest, stream: boolean): RequestStart {
  const headers = request.headers;
  return {
    requestId,
    route: request.route,
    key: request.key,
    stream,
    receivedAt: request.receivedAt ?? performance.now(),
    model: typeof request.body.model === "string" ? request.body.model : "",
    maxTokens: maxTokensOf(request.body),
    userAgent: headers?.get("user-agent") ?? null,
    traceparent: headers?.get("traceparent") ?? null,
    tracestate: headers?.get("tracestate") ?? null,
  };
}

/** The observed state of one request. */
export class ObservedRequest {
  readonly #observation: RequestObservation;
  /** What the observers were told at the start (its arrival time, key, user agent). */
  readonly #start: RequestStart;
  #attemptAt = 0;
  #upstreamMs = 0;
  #pausedMs = 0;
  #firstByteAt: number | null = null;
  #reported = 0;
  /** Headers for the current attempt's upstream call (the trace context). */
  upstreamHeaders: Record<string, string> | undefined;
  readonly #finishReasons: string[] = [];
  mode: DeliveryMode | null = null;
  /** The error code of a refusal before any upstream call, and the limit that refused it. */
  refusal: string | null = null;
  limit: string | null = null;

  readonly #log: Logger;

  constructor(observation: RequestObservation, start: RequestStart, log: Logger) {
    this.#observation = observation;
    this.#start = start;
    this.#log = log;
  }

  /** Attempt `attempt` (1-based) begins on `model`'s deployment. */
  attempting(model: ResolvedModel, attempt: number): void {
    this.#attemptAt = performance.now();
    try {
      this.upstreamHeaders = this.#observation.attemptStarted(model, attempt);
    } catch (error) {
      this.upstreamHeaders = undefined;
      observerFailed(this.#log, this.#start.requestId, error);
    }
  }

  /** The current attempt's answer is in as far as the first byte needs it (a first chunk, a
   * whole body) or it failed: upstream time stops. */
  upstreamIn(): void {
    if (this.#attemptAt === 0) return;
    this.#upstreamMs += performance.now() - this.#attemptAt;
    this.#attemptAt = 0;
  }

  /** The attempt stage waited `ms` between attempts. */
  paused(ms: number): void {
    this.#pausedMs += ms;
  }

  /** The first byte reached the client. */
  firstByte(): void {
    this.#firstByteAt ??= performance.now();
    this.upstreamIn();
  }

  /** A stop reason the answer gave. */
  finished(reason: string): void {
    if (!this.#finishReasons.includes(reason)) this.#finishReasons.push(reason);
  }

  /** Reports the attempts that ended and were not reported yet. */
  attemptsEnded(records: readonly AttemptRecord[]): void {
    this.upstreamIn();
    while (this.#reported < records.length) {
      const index = this.#reported++;
      try {
        this.#observation.attemptEnded(records[index]!, index + 1);
      } catch (error) {
        observerFailed(this.#log, this.#start.requestId, error);
      }
    }
  }

  /** The request settled with `record`: the last attempts and the request go to the observers.
   * An observer that throws costs the request nothing: it is logged. */
  settled(record: UsageRecord): void {
    try {
      this.#settled(record);
    } catch (error) {
      observerFailed(this.#log, record.requestId, error);
    }
  }

  #settled(record: UsageRecord): void {
    this.attemptsEnded(record.attemptLog ?? []);
    const now = performance.now();
    const start = this.#start.receivedAt;
    const ownEnd = (this.#firstByteAt ?? now) - start;
    this.#observation.settled({
      record,
      key: this.#start.key,
      userAgent: this.#start.userAgent,
      refusal: this.refusal,
      limit: this.limit,
      durationMs: now - start,
      firstByteMs: this.#firstByteAt === null ? null : this.#firstByteAt - start,
      overheadMs: record.attempts === 0
        ? null
        : Math.max(0, ownEnd - this.#upstreamMs - this.#pausedMs),
      upstreamMs: this.#upstreamMs,
      finishReasons: this.#finishReasons,
      mode: this.mode,
    });
  }
}
