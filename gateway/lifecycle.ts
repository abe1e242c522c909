/**
 * One model request's life, from its authenticated arrival to its one ledger row:
 *
 *   authenticate (routes/auth.ts) → resolve → admit → attempt → deliver → settle
 *
 * The delivery paths (passthrough, translation, local counting) only describe what happened —
 * usage seen, the upstream's ids, first byte, how the stream ended — to this object. It alone
 * decides the outcome and settles: writes the ledger row and releases what admission reserved,
 * exactly once, whatever the ending (success, upstream error or cut, timeout, client gone, our
 * own exception). ARCHITECTURE.md describes the stages and where later work hooks in.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { Pricing } from "../catalog/schema.ts";
import { GatewayError } from "../core/errors.ts";
import { randomId, REQUEST_ID_HEADER, requestIdFrom, SERVED_MODEL_HEADER } from "../core/ids.ts";
import { emptyUsage, type Usage } from "../core/response.ts";
import type { Outcome, UsageRecord } from "../store/store.ts";
import { type Admission, admitEverything } from "./admission.ts";
import { costOf } from "./cost.ts";
import { createMeter, type Meter, meteredUsage } from "./meter.ts";
import type { GatewayDeps, RouteRequest } from "./exchange.ts";
import { endingOfError, type Stage, streamOutcome } from "./outcome.ts";
import { handOn } from "./settle.ts";
import type { AttemptFailed } from "./attempt_failure.ts";
import { AttemptLog } from "./attempt_log.ts";
import type { Drainable } from "./in_flight.ts";
import type { DeliveryMode } from "../observe/observer.ts";
import { type ObservedRequest, observeRequest } from "./observed_request.ts";
import { ResponseHead } from "./response_head.ts";

/** The body an admitted request's lifecycle keeps: none. */
const EMPTY_BODY: Record<string, unknown> = Object.freeze({});

/** How a response body stopped, as the body stage saw it: it ran to its end (after a cut
 * upstream too: the client still got the terminal error), the client cancelled it, or our own
 * code threw while producing it. */
export type BodyEnd = "end" | "cancel" | "failed";

/** The state of one request and its one settle. */
export class Lifecycle implements Drainable {
  readonly requestId: string;
  #responseId: string | null = null;
  readonly started = Date.now();
  readonly #deps: GatewayDeps;
  /** The request as handed over, until admitted; then the same without its body (see
   * {@link admit}). */
  #request: RouteRequest;
  readonly #stream: boolean;
  #stage: Stage = "resolve";
  #model: ResolvedModel | null = null;
  #pricing: Pricing = {};
  #usage: Usage = emptyUsage();
  #images = 0;
  readonly #attempts: AttemptLog;
  /** Whether `pricing` was given at resolve (free counting): fallbacks keep it. */
  #fixedPricing = false;
  #provider = "";
  #servedModel = "";
  #upstreamId: string | null = null;
  #firstByteAt: number | null = null;
  /** What the delivered stream said last: a clean finish, or an error it ended with. */
  #streamEnd: "finish" | GatewayError | null = null;
  #admission: Admission | null = null;
  /** Meters the delivered stream while a budget watches it (`gateway/meter.ts`): made at
   * admission when the admission has a watch. */
  #meter: Meter | null = null;
  /** Stops reading the upstream stream (set by `upstreamStream`). */
  #cutUpstream: (() => void) | null = null;
  /** Stops the attempt stage's current wait: an upstream call or a backoff. */
  #stopAttempt: ((error: GatewayError) => void) | null = null;
  /** Set when a shutdown ended this request. */
  #shutdown: GatewayError | null = null;
  readonly #untrack: () => void;
  #settled = false;
  /** The observers' side of this request (metrics, traces, request log); null without any. */
  readonly #observed: ObservedRequest | null;

  constructor(deps: GatewayDeps, request: RouteRequest, stream: boolean) {
    this.#deps = deps;
    this.#request = request;
    this.#stream = stream;
    this.requestId = request.requestId ?? requestIdFrom(null);
    this.#attempts = new AttemptLog(deps.health, deps.log, this.requestId);
    this.#observed = deps.observer === undefined
      ? null
      : observeRequest(deps.observer, this.requestId, request, stream, deps.log);
    this.#untrack = deps.inflight.track(this);
  }

  /** The id of the response, message or completion gatehouse composes for this request (made on
   * first use: passthrough answers need none). */
  get responseId(): string {
    return this.#responseId ??= randomId();
  }

  /** Fresh headers for a response gatehouse builds for this request, carrying its
   * `x-request-id` and the admission's rate-limit headers; `respond` builds the response. */
  responseHeaders(): ResponseHead {
    const headers = new ResponseHead();
    headers.set(REQUEST_ID_HEADER, this.requestId);
    if (this.#servedModel !== "") headers.set(SERVED_MODEL_HEADER, this.#servedModel);
    const limits = this.#admission?.headers;
    if (limits) { for (const name in limits) headers.set(name, limits[name]!); }
    return headers;
  }

  /** The resolved model; only after {@link resolved}. */
  get model(): ResolvedModel {
    if (this.#model === null) throw new Error("the lifecycle has no model before resolve");
    return this.#model;
  }

  /** Usage seen so far. */
  get usage(): Usage {
    return { ...this.#usage };
  }

  /** Resolve: the model the request names. `pricing` overrides the model's (free counting). */
  resolved(model: ResolvedModel, pricing: Pricing = model.pricing): void {
    this.#model = model;
    this.#pricing = pricing;
    this.#fixedPricing = pricing !== model.pricing;
    this.#servedModel = model.id;
    this.#provider = model.provider.name;
  }

  /** Admit: asks the admitter; throws its refusal. A promise only when the admitter answers
   * with one (a shared store's limits): admitting everything costs no turn of the event loop. */
  admit(): Promise<void> | undefined {
    this.#stage = "admit";
    const admitter = this.#deps.admitter ?? admitEverything;
    const request = this.#request;
    const admission = admitter.admit({
      requestId: this.requestId,
      key: request.key,
      model: this.model,
      route: request.route,
      body: request.body,
      stream: this.#stream,
      bodyBytes: request.bodyBytes ?? null,
    });
    // Nothing after admission reads the body (the attempts carry their own), and a stream's
    // lifecycle lives as long as the stream: without this, each open stream kept its prompt,
    // parsed, as text and, for a large body, as bytes.
    this.#request = { ...request, body: EMPTY_BODY, bodyText: undefined, bodyUtf8: undefined };
    if (!(admission instanceof Promise)) return this.#admitted(admission);
    return admission.then((held) => this.#admitted(held));
  }

  #admitted(admission: Admission): undefined {
    this.#admission = admission;
    if (admission.watch === undefined) return;
    this.#meter = createMeter({
      admission,
      flowing: (outputTokens) => {
        const usage = meteredUsage(this.#usage, outputTokens, admission.inputEstimate ?? 0);
        return { usage, cost: costOf(this.#pricing, usage, this.#images) };
      },
      ended: () => this.#streamEnd !== null,
      refused: (error) => {
        this.streamEnded(error);
        this.#cutUpstream?.();
      },
    });
  }

  /** Attempt: one more upstream call, to `model`'s bound deployment; a fallback's own prices
   * apply from here. */
  attempting(model: ResolvedModel): void {
    this.#stage = "attempt";
    this.#attempts.begin(model);
    this.#servedModel = model.id;
    this.#provider = model.provider.name;
    if (!this.#fixedPricing) this.#pricing = model.pricing;
    this.#observed?.attempting(model, this.#attempts.count);
  }

  /** Headers the observers add to the current attempt's upstream call (the trace context). */
  get upstreamHeaders(): Record<string, string> | undefined {
    return this.#observed?.upstreamHeaders;
  }

  /** The current attempt's answer is in as far as the client's first byte needs it (a stream's
   * first chunk, a whole body): the observers' upstream time stops here. */
  upstreamIn(): void {
    this.#observed?.upstreamIn();
  }

  /** The attempt stage waited `ms` before another attempt (a backoff or retry-after). */
  paused(ms: number): void {
    this.#observed?.paused(ms);
  }

  /** How the answer is produced: forwarded, translated or made locally. */
  delivered(mode: DeliveryMode): void {
    if (this.#observed !== null) this.#observed.mode = mode;
  }

  /** A stop reason of the answer, as the upstream wrote it (`stop`, `end_turn`, …). */
  finished(reason: string): void {
    this.#observed?.finished(reason);
  }

  /** Whether a streamed answer is open to the client now (first byte sent, not settled). */
  get streamOpen(): boolean {
    return this.#stream && !this.#settled && this.#firstByteAt !== null;
  }

  /** Deliver: the upstream answered with `status`; what follows produces the client's response. */
  delivering(status: number): void {
    this.#stage = "deliver";
    this.#attempts.answered(status);
  }

  /** The current attempt failed before anything reached the client; another may follow, so what
   * the failed one told this lifecycle is forgotten. */
  attemptFailed(failure: AttemptFailed): void {
    this.#attempts.failed(failure);
    this.#observed?.attemptsEnded(this.#attempts.records);
    this.#stage = "attempt";
    this.#streamEnd = null;
    this.#cutUpstream = null;
    this.#upstreamId = null;
  }

  /** Upstream calls made so far. */
  get attempts(): number {
    return this.#attempts.count;
  }

  /** Registers how to stop the attempt stage's current wait (null: nothing to stop). */
  stopAttemptWith(stop: ((error: GatewayError) => void) | null): void {
    this.#stopAttempt = stop;
  }

  /** The error a shutdown ended this request with, once it did. */
  get shutdownError(): GatewayError | null {
    return this.#shutdown;
  }

  /** Ends this request for a shutdown: a stream ends with the wire's terminal error, a request
   * still in the attempt stage gets `error` as its response. */
  shutDown(error: GatewayError): void {
    if (this.#settled) return;
    this.#shutdown ??= error;
    this.streamEnded(error);
    this.#stopAttempt?.(error);
    this.#cutUpstream?.();
  }

  /** Settles now as ended by the shutdown (its response is still open at exit). */
  settleNow(): void {
    const error = this.#shutdown;
    this.settle("shutdown", this.#stage === "deliver" ? 200 : error?.status ?? 503);
  }

  /** Usage fields seen; later values win (streams report cumulative numbers). */
  add(usage: Partial<Usage>): void {
    for (const [field, value] of Object.entries(usage) as [keyof Usage, number | undefined][]) {
      if (typeof value === "number" && Number.isFinite(value)) this.#usage[field] = value;
    }
  }

  /** The meter of the streamed output while a budget watches it, else null. When its watch
   * refuses, the stream ends with the budget's error ({@link cut}); the upstream read stops. */
  get meter(): Meter | null {
    return this.#meter;
  }

  /** How to stop reading the upstream stream early (`upstreamStream` registers it). */
  onCut(cut: () => void): void {
    this.#cutUpstream = cut;
  }

  /** What the request is billed for: the upstream's usage, and for a metered stream that did
   * not finish (cut, broken off, client gone) or finished with no output figure (chat's usage
   * chunk comes after its finish_reason chunk) at least what was delivered. */
  #billable(): Usage {
    const meter = this.#meter;
    const reported = this.#usage.outputTokens > 0;
    if (meter === null || (this.#streamEnd === "finish" && reported)) return { ...this.#usage };
    return meteredUsage(this.#usage, meter.tokens(), this.#admission!.inputEstimate ?? 0);
  }

  /** Generated images. */
  addImages(count: number): void {
    this.#images += count;
  }

  /** The provider's own id for its answer (kept for the ledger and logs, never shown). */
  upstreamAnswered(id: string | null | undefined): void {
    if (id) this.#upstreamId ??= id;
  }

  /** The first bytes of the response reached the body handed to the client. */
  firstByte(): void {
    if (this.#firstByteAt !== null) return;
    this.#firstByteAt = Date.now();
    this.#observed?.firstByte();
  }

  /** The delivered stream ended with its terminal event (`finish`) or a terminal error. */
  streamEnded(end: "finish" | GatewayError): void {
    this.#streamEnd ??= end;
  }

  /** Whether the budget watch ended the stream: nothing after the event that reached the
   * budget may be forwarded (the delivery paths drop the rest and end with its error). */
  get cut(): boolean {
    return this.streamError?.kind === "quota";
  }

  /** The error the delivered stream ended with, once it ended with one. The first cause
   * recorded wins: a stream the gateway ended for silence is a timeout, not a cut. */
  get streamError(): GatewayError | null {
    const end = this.#streamEnd;
    return end === null || end === "finish" ? null : end;
  }

  /** A response built whole: settles now, with its status. */
  answered(status: number): void {
    this.firstByte();
    this.settle(status < 400 ? "ok" : "upstream_error", status);
  }

  /** The request stopped with `error` before a response was sent. */
  fail(error: unknown): void {
    const ending = endingOfError(error, this.#stage, this.#request.signal.aborted);
    if (this.#observed !== null && ending.outcome === "rejected" && error instanceof GatewayError) {
      this.#observed.refusal = error.code ?? error.kind;
      this.#observed.limit = error.limit;
    }
    if (ending.outcome === "internal_error") {
      this.#deps.log.error("request failed in the gateway", {
        requestId: this.requestId,
        error: String(error),
        stack: (error as Error)?.stack,
      });
    }
    this.settle(ending.outcome, ending.status);
  }

  /** A streamed response body stopped (`status` is what the client was sent). */
  bodyEnded(how: BodyEnd, status: number): void {
    // A client that leaves after the terminal event was forwarded got its whole answer.
    if (how === "cancel") {
      return this.settle(this.#streamEnd === "finish" ? "ok" : "client_disconnect", status);
    }
    if (how === "failed") return this.settle("internal_error", status);
    const end = this.#streamEnd;
    this.settle(
      end === null ? "upstream_cut" : end === "finish" ? "ok" : streamOutcome(end),
      status,
    );
  }

  /** Writes the ledger row and releases the admission; every later call does nothing. */
  settle(outcome: Outcome, status: number): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#untrack();
    this.#attempts.settled(outcome, this.streamError?.message ?? "");
    const usage = this.#billable();
    const cost = costOf(this.#pricing, usage, this.#images);
    const record = this.#record(outcome, status, cost, usage);
    handOn(this.#deps, this.#admission, { usage, images: this.#images, cost, outcome }, record);
    this.#observed?.settled(record);
  }

  #record(outcome: Outcome, status: number, cost: number, usage: Usage): UsageRecord {
    const request = this.#request;
    const requested = this.#model?.id ??
      (typeof request.body.model === "string" ? request.body.model : "");
    return {
      requestId: this.requestId,
      keyId: request.key.id,
      model: requested,
      servedModel: this.#servedModel,
      upstream: this.#provider,
      upstreamId: this.#upstreamId,
      route: request.route,
      status,
      outcome,
      attempts: this.#attempts.count,
      attemptLog: this.#attempts.records,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cachedTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      reasoningTokens: usage.reasoningTokens,
      images: this.#images,
      cost,
      latencyMs: Date.now() - this.started,
      firstByteMs: this.#firstByteAt === null ? null : this.#firstByteAt - this.started,
      stream: this.#stream,
      time: this.started,
    };
  }
}
