/**
 * The attempts of one request: the ledger's per-attempt records, and each attempt's ticket with
 * its deployment's breaker (`health.ts`) held from its start until the request settles.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { AttemptRecord, AttemptResult, Outcome } from "../store/store.ts";
import type { AttemptFailed } from "./attempt_failure.ts";
import type { AttemptTicket, DeploymentHealth } from "./health.ts";
import type { Logger } from "./exchange.ts";

/** Failures worded by the provider (its error body): its message may quote the request (an
 * echoed prompt, a field value), so the log line names the provider's error code instead.
 * Gatehouse's own failures (unreachable, timeouts, a cut, a refused credential: that message
 * is gatehouse's, without the provider's) keep their message. */
const PROVIDER_WORDED: ReadonlySet<AttemptResult> = new Set([
  "retryable_status",
  "error_event",
  "context_overflow",
]);

/** A provider error code is a short identifier; anything else is not logged. */
const ERROR_CODE = /^[A-Za-z0-9_.:-]{1,64}$/;

/** What the log says of `failure`: gatehouse's own message, or the provider's error code. */
export function loggedError(failure: AttemptFailed): string {
  if (!PROVIDER_WORDED.has(failure.result)) return failure.message;
  const code = failure.error.code ?? failure.error.kind;
  return ERROR_CODE.test(code) ? `provider error ${code}` : "provider error";
}

/** Outcomes that count against the deployment that was answering when they happened. */
const DEPLOYMENT_FAULTS: ReadonlySet<Outcome> = new Set(["upstream_cut", "timeout"]);

/** Every attempt of one request, in order. */
export class AttemptLog {
  readonly records: AttemptRecord[] = [];
  readonly #health: DeploymentHealth;
  readonly #log: Logger;
  readonly #requestId: string;
  #ticket: AttemptTicket | null = null;
  #current: AttemptRecord | null = null;
  #startedAt = 0;
  #answered = false;

  constructor(health: DeploymentHealth, log: Logger, requestId: string) {
    this.#health = health;
    this.#log = log;
    this.#requestId = requestId;
  }

  /** Upstream calls made. */
  get count(): number {
    return this.records.length;
  }

  /** A new attempt on `model`'s bound deployment. */
  begin(model: ResolvedModel): void {
    this.#ticket?.done();
    const deployment = model.deployment;
    this.#ticket = this.#health.begin(deployment.id);
    this.#startedAt = Date.now();
    this.#answered = false;
    this.#current = {
      deployment: deployment.id,
      provider: deployment.provider.name,
      model: model.id,
      status: 0,
      result: "ok",
      ms: 0,
    };
    this.records.push(this.#current);
  }

  /** The upstream answered with `status` and its answer goes to the client. */
  answered(status: number): void {
    const current = this.#current;
    if (current === null || this.#answered) return;
    this.#answered = true;
    current.status = status;
    current.ms = Date.now() - this.#startedAt;
    this.#ticket?.succeeded();
  }

  /** The attempt failed before anything reached the client; the deployment is told (a 429's
   * retry-after cools it down for that long). */
  failed(failure: AttemptFailed): void {
    const current = this.#current;
    if (current === null) return;
    current.result = failure.result;
    current.status = failure.status;
    current.ms = Date.now() - this.#startedAt;
    // A provider that says when to come back (429, often 503) is left alone until then.
    const coolFor = failure.retryAfterMs ?? undefined;
    this.#ticket?.failed(`${failure.result}: ${failure.message}`.slice(0, 300), coolFor);
    this.#end();
    this.#log.warn("upstream attempt failed", {
      requestId: this.#requestId,
      attempt: this.records.length,
      deployment: current.deployment,
      status: current.status,
      result: current.result,
      error: loggedError(failure),
    });
  }

  /** The request settled with `outcome`: the last attempt's ticket is returned; a stream that
   * broke off or went silent counts against its deployment. */
  settled(outcome: Outcome, detail: string): void {
    const current = this.#current;
    if (current === null) return;
    if (!this.#answered && current.result === "ok") {
      const result: AttemptResult = outcome === "ok" ? "ok" : "aborted";
      current.result = result;
      current.ms = Date.now() - this.#startedAt;
    }
    if (this.#answered && DEPLOYMENT_FAULTS.has(outcome)) {
      this.#ticket?.failed(`${outcome}: ${detail}`.slice(0, 300));
    }
    this.#end();
  }

  #end(): void {
    this.#ticket?.done();
    this.#ticket = null;
    this.#current = null;
  }
}
