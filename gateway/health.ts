/**
 * The health of each deployment, as this process sees it: a circuit breaker per deployment.
 *
 *   healthy ──(N retryable failures in a row)──▶ cooling ──(cool-down over)──▶ probing
 *      ▲                                            ▲                            │
 *      └──────────────(the probe succeeds)──────────┼────────(the probe fails)───┘
 *
 * A failure counts towards the N in a row only when no other attempt was answered while it ran,
 * or when at least half of the deployment's calls of the last 10-20 s failed (a call answered and
 * then cut counts once, as failed). Under concurrency the order attempts end in says little: a
 * burst of attempts that met one slow spell (a listen queue that dropped their SYNs) fails
 * together seconds later, while attempts begun after them were answered; counted in a row, three
 * of them cooled a model's only deployment for the whole cool-down, refusing everyone with 503 and
 * ending their own retries. A deployment that is down answers nothing, so the attempts begun
 * after its last answer fail uncontested and cool it as before; once half of its calls fail, each
 * failure counts again. The trade: one whose slow failures stay under half of its calls (a
 * timeout now and then among answers) keeps its traffic, and retries absorb them. Any answer
 * still resets the run.
 *
 * A retryable failure with `retry-after` (a 429, often a 503) cools a deployment for that long,
 * then it is healthy again (the provider said when it will take traffic; no probe is needed),
 * whatever else was answered meanwhile. A probing deployment takes one request at a time until
 * one succeeds; any answer heals it, so a probe that fails cools it again (an attempt begun before
 * the cool-down that fails while probing does so only if it counts). In-flight counts, the
 * recent error rate and the last error are kept for routing (`attempt_plan.ts`), `/readyz` and
 * `GET /admin/v1/deployments`.
 * @module
 */

/** Where a deployment stands. */
export type DeploymentState = "healthy" | "cooling" | "probing";

/** How the breaker behaves. */
export interface HealthSettings {
  /** How long a deployment rests after `failures` retryable failures in a row, ms. */
  cooldownMs: number;
  /** Retryable failures in a row that cool a deployment down (one overtaken by answers does not
   * count: see the module doc). */
  failures: number;
  /** Unix milliseconds (tests move it). */
  now?: () => number;
}

/** One deployment's health as the admin view shows it. */
export interface HealthView {
  state: DeploymentState;
  inFlight: number;
  consecutiveFailures: number;
  /** Attempts and failed attempts in the last {@link RECENT_WINDOW_MS}. */
  recentRequests: number;
  recentErrors: number;
  /** When the cool-down ends (unix ms), while cooling. */
  cooldownUntil: number | null;
  lastError: string | null;
}

/** One attempt on a deployment, from its start until its request settles. */
export interface AttemptTicket {
  /** The deployment answered (any status the client is given as it is, 4xx included). */
  succeeded(): void;
  /** A retryable failure (also one after the answer began: a stream cut mid-way).
   * `coolForMs` is the provider's retry-after, when it gave one. */
  failed(error: string, coolForMs?: number): void;
  /** The attempt is over (its stream ended, or it failed); later calls do nothing. */
  done(): void;
}

/** A deployment's move from one state to another (the request log writes one line each). */
export interface HealthChange {
  deployment: string;
  from: DeploymentState;
  to: DeploymentState;
  /** Why: `failures` (too many in a row), `retry_after` (the provider said when), `probe_failed`,
   * `cooldown_over`, `probe_succeeded`. */
  reason: string;
  /** The failure that moved it, as its code (`retryable_status`, `timeout`, …); never the
   * provider's message. Null for a recovery. */
  error: string | null;
  /** When the cool-down ends (unix ms), for a move to cooling. */
  until: number | null;
  consecutiveFailures: number;
}

/** Told of each state change, in this process. */
export type HealthListener = (change: HealthChange) => void;

/** The span the recent error rate covers. */
export const RECENT_WINDOW_MS = 5 * 60_000;
const BUCKET_MS = 10_000;
const BUCKETS = RECENT_WINDOW_MS / BUCKET_MS;

class Entry {
  readonly id: string;
  readonly #changed: HealthListener;
  state: DeploymentState = "healthy";
  consecutive = 0;
  inFlight = 0;
  /** Attempts answered so far: a ticket notes it when it begins, so its failure can tell whether
   * another attempt was answered while it ran. */
  answered = 0;
  coolUntil = 0;
  /** Whether the cool-down ends in a probe (after failures) or in health (after retry-after). */
  probeAfter = false;
  probeInFlight = false;
  lastError: string | null = null;
  readonly requests = new Array<number>(BUCKETS).fill(0);
  readonly errors = new Array<number>(BUCKETS).fill(0);
  /** The bucket number (time / BUCKET_MS) each slot holds. */
  readonly epochs = new Array<number>(BUCKETS).fill(-1);

  constructor(id: string, changed: HealthListener) {
    this.id = id;
    this.#changed = changed;
  }

  /** Moves to `to`, telling the listeners when that is a change. */
  move(to: DeploymentState, reason: string, error: string | null = null): void {
    const from = this.state;
    this.state = to;
    if (from === to) return;
    const until = to === "cooling" ? this.coolUntil : null;
    const consecutiveFailures = this.consecutive;
    this.#changed({ deployment: this.id, from, to, reason, error, until, consecutiveFailures });
  }

  count(now: number, error: boolean): void {
    const epoch = Math.floor(now / BUCKET_MS);
    const slot = epoch % BUCKETS;
    if (this.epochs[slot] !== epoch) {
      this.epochs[slot] = epoch;
      this.requests[slot] = 0;
      this.errors[slot] = 0;
    }
    if (error) this.errors[slot]!++;
    else this.requests[slot]!++;
  }

  /** Takes back an answer counted at `now` (still in its bucket): an attempt answered and then
   * cut is one failed call, not an answer and a failure. */
  uncount(now: number): void {
    const epoch = Math.floor(now / BUCKET_MS);
    const slot = epoch % BUCKETS;
    if (this.epochs[slot] === epoch && this.requests[slot]! > 0) this.requests[slot]!--;
  }

  /** Calls and failed calls in the buckets after the one numbered `after` (time / BUCKET_MS). */
  sumAfter(after: number): { requests: number; errors: number } {
    let requests = 0;
    let errors = 0;
    for (let slot = 0; slot < BUCKETS; slot++) {
      if (this.epochs[slot]! <= after) continue;
      requests += this.requests[slot]! + this.errors[slot]!;
      errors += this.errors[slot]!;
    }
    return { requests, errors };
  }

  recent(now: number): { requests: number; errors: number } {
    return this.sumAfter(Math.floor((now - RECENT_WINDOW_MS) / BUCKET_MS));
  }

  /** Whether failures are at least half of the calls counted in this 10 s bucket and the one
   * before it (so the span is 10-20 s, never empty right after a bucket turns). */
  mostlyFailing(now: number): boolean {
    const { requests, errors } = this.sumAfter(Math.floor(now / BUCKET_MS) - 2);
    return errors * 2 >= requests;
  }
}

/** Every deployment's breaker; one per process. */
export class DeploymentHealth {
  readonly #entries = new Map<string, Entry>();
  readonly #settings: HealthSettings;
  readonly #now: () => number;
  readonly #listeners: HealthListener[] = [];
  readonly #changed: HealthListener = (change) => {
    for (const listener of this.#listeners) listener(change);
  };

  constructor(settings: HealthSettings) {
    this.#settings = settings;
    this.#now = settings.now ?? Date.now;
  }

  /** Calls `listener` on each state change from now on (the request log's deployment lines). */
  onChange(listener: HealthListener): void {
    this.#listeners.push(listener);
  }

  #entry(id: string): Entry {
    let entry = this.#entries.get(id);
    if (entry === undefined) this.#entries.set(id, entry = new Entry(id, this.#changed));
    // A cool-down that ended moves on when next looked at: no timer per deployment.
    if (entry.state === "cooling" && this.#now() >= entry.coolUntil) {
      entry.move(entry.probeAfter ? "probing" : "healthy", "cooldown_over");
    }
    return entry;
  }

  /** Whether a request may go to `id` now: healthy, or probing with no probe running. */
  usable(id: string): boolean {
    const entry = this.#entries.get(id) === undefined ? null : this.#entry(id);
    if (entry === null || entry.state === "healthy") return true;
    return entry.state === "probing" && !entry.probeInFlight;
  }

  /** Requests running on `id` (0 for one never called). */
  inFlight(id: string): number {
    return this.#entries.get(id)?.inFlight ?? 0;
  }

  /** When `id`'s cool-down ends (unix ms), or null when it is not cooling. */
  cooldownUntil(id: string): number | null {
    const entry = this.#entries.get(id) === undefined ? null : this.#entry(id);
    return entry?.state === "cooling" ? entry.coolUntil : null;
  }

  /** `id`'s health for the admin view. */
  view(id: string): HealthView {
    const entry = this.#entry(id);
    const recent = entry.recent(this.#now());
    return {
      state: entry.state,
      inFlight: entry.inFlight,
      consecutiveFailures: entry.consecutive,
      recentRequests: recent.requests,
      recentErrors: recent.errors,
      cooldownUntil: entry.state === "cooling" ? entry.coolUntil : null,
      lastError: entry.lastError,
    };
  }

  /** Starts an attempt on `id`. */
  begin(id: string): AttemptTicket {
    return new Ticket(this.#entry(id), this.#now, this.#settings);
  }
}

/** One attempt's hold on its deployment (a class, not closures: one is made per request). */
class Ticket implements AttemptTicket {
  readonly #entry: Entry;
  readonly #now: () => number;
  readonly #settings: HealthSettings;
  /** Whether this ticket holds the probe: released once, so a probe that answered long ago
   * cannot end a later probe's turn when its stream finally ends. */
  #probe: boolean;
  #over = false;
  /** When this attempt was answered (unix ms), or null. */
  #answeredAt: number | null = null;
  #failed = false;
  /** The deployment's answered count when this attempt began (or answered itself). */
  #seen: number;

  constructor(entry: Entry, now: () => number, settings: HealthSettings) {
    this.#entry = entry;
    this.#now = now;
    this.#settings = settings;
    this.#seen = entry.answered;
    entry.inFlight++;
    this.#probe = entry.state === "probing";
    if (this.#probe) entry.probeInFlight = true;
  }

  succeeded(): void {
    if (this.#over || this.#answeredAt !== null) return;
    const entry = this.#entry;
    this.#answeredAt = this.#now();
    entry.count(this.#answeredAt, false);
    entry.consecutive = 0;
    this.#seen = ++entry.answered;
    if (entry.state === "probing") entry.move("healthy", "probe_succeeded");
    this.#endProbe();
  }

  failed(error: string, coolForMs?: number): void {
    if (this.#over) return;
    const entry = this.#entry;
    const now = this.#now();
    if (this.#answeredAt !== null && !this.#failed) entry.uncount(this.#answeredAt);
    this.#failed = true;
    entry.count(now, true);
    entry.lastError = error;
    // Overtaken (another attempt was answered while this one ran, and more than half of the
    // recent calls succeeded): the failure is this attempt's, not evidence that the deployment
    // is down.
    const counts = entry.answered === this.#seen || entry.mostlyFailing(now);
    if (counts) entry.consecutive++;
    afterFailure(entry, now, this.#settings, coolForMs, error, counts);
    this.#endProbe();
  }

  done(): void {
    if (this.#over) return;
    this.#over = true;
    this.#entry.inFlight--;
    this.#endProbe();
  }

  #endProbe(): void {
    if (!this.#probe) return;
    this.#probe = false;
    this.#entry.probeInFlight = false;
  }
}

/** Where a failure leaves `entry`: cooling for the provider's retry-after, or, when it `counts`
 * towards the run, after too many failures in a row (or a failed probe) for the configured
 * cool-down. `error` reads `<code>: <message>`; only the code goes to a listener (a provider's
 * message may quote a request). */
function afterFailure(
  entry: Entry,
  now: number,
  settings: HealthSettings,
  coolForMs: number | undefined,
  error: string,
  counts: boolean,
): void {
  const code = error.split(":", 1)[0] ?? null;
  if (coolForMs !== undefined && coolForMs > 0) {
    // The provider named when it takes traffic again: rest that long, no probe after it.
    if (entry.state !== "cooling" || entry.coolUntil < now + coolForMs) {
      entry.coolUntil = now + coolForMs;
      entry.probeAfter = false;
      entry.move("cooling", "retry_after", code);
    }
    return;
  }
  if (!counts) return;
  if (entry.state === "probing" || entry.consecutive >= settings.failures) {
    const reason = entry.state === "probing" ? "probe_failed" : "failures";
    entry.coolUntil = Math.max(entry.coolUntil, now + settings.cooldownMs);
    entry.probeAfter = true;
    entry.move("cooling", reason, code);
  }
}
