/**
 * The requests this process is running, for a graceful shutdown: on SIGTERM the gateway stops
 * taking requests, lets these run to their end for a grace period, then ends the rest with the
 * client protocol's terminal error (`main.ts` drives it; `Lifecycle` registers itself).
 * @module
 */
import { GatewayError } from "../core/errors.ts";
import { Slots } from "../core/slots.ts";

/** What a running request must do when the gateway can wait for it no longer. */
export interface Drainable {
  /** Ends the request now with `error`: a stream with the wire's terminal error, a request still
   * waiting on its upstream with `error` as its response. */
  shutDown(error: GatewayError): void;
  /** Writes the request's ledger row now, as ended by the shutdown (its response could not
   * finish in time: a client that does not read). Does nothing once it settled. */
  settleNow(): void;
  /** Whether it is a streamed answer open to its client now. */
  readonly streamOpen?: boolean;
}

/** The code of the error a request ended by a shutdown gets. */
export const SHUTTING_DOWN = "gateway_shutting_down";

/** The error a request gets when the gateway ends it, or refuses it, while shutting down. */
export function shuttingDown(signal = "SIGTERM"): GatewayError {
  return new GatewayError(
    "unavailable",
    503,
    `gatehouse is shutting down (${signal}); the response is incomplete. Retry the request.`,
    { code: SHUTTING_DOWN, headers: { "retry-after": "1" } },
  );
}

/** The registry of running requests; one per process. Kept in reused slots, not a `Set`: a
 * `Set` taking and dropping every request kept each one's objects alive until a full collection
 * (`core/slots.ts`). */
export class InFlight {
  readonly #entries = new Slots<Drainable>();
  #draining = false;
  #signal = "SIGTERM";
  #whenEmpty: (() => void)[] = [];
  /** The most requests running at once since {@link InFlight.resetPeak}. */
  #peak = 0;
  #onFall: ((running: number) => void) | null = null;

  /** True once a drain began: `/readyz` answers 503 and new model requests are refused. */
  get draining(): boolean {
    return this.#draining;
  }

  /** The signal that started the drain (for messages). */
  get signal(): string {
    return this.#signal;
  }

  /** Requests running. */
  get size(): number {
    return this.#entries.size;
  }

  /** Streamed answers open to their clients now (counted when asked: a metrics scrape). */
  streamsOpen(): number {
    let open = 0;
    for (let slot = 0; slot < this.#entries.capacity; slot++) {
      if (this.#entries.at(slot)?.streamOpen === true) open++;
    }
    return open;
  }

  /** Registers a running request; the returned function removes it (call it once it settled). */
  track(entry: Drainable): () => void {
    const slot = this.#entries.add(entry);
    if (this.#entries.size > this.#peak) this.#peak = this.#entries.size;
    return () => {
      if (!this.#entries.remove(slot, entry)) return;
      const running = this.#entries.size;
      if (this.#onFall !== null && running * 4 <= this.#peak) this.#onFall(running);
      if (running > 0) return;
      const waiting = this.#whenEmpty;
      this.#whenEmpty = [];
      for (const resolve of waiting) resolve();
    };
  }

  /** The most requests running at once since {@link InFlight.resetPeak}. */
  get peak(): number {
    return this.#peak;
  }

  /** Calls `listener` each time a request leaves and the rest are a quarter or less of the most
   * that ran at once since {@link InFlight.resetPeak}: a load fell away (`memory_trim.ts`). */
  onFall(listener: (running: number) => void): void {
    this.#onFall = listener;
  }

  /** Starts a new peak from the requests running now. */
  resetPeak(): void {
    this.#peak = this.#entries.size;
  }

  /** Starts draining: waits until every running request settled or `graceMs` passed, then ends
   * the ones still running. Resolves with how many were ended. */
  async drain(graceMs: number, signal = "SIGTERM"): Promise<number> {
    this.#draining = true;
    this.#signal = signal;
    if (this.#entries.size > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs));
      const empty = new Promise<void>((resolve) => this.#whenEmpty.push(resolve));
      await Promise.race([grace, empty]);
      clearTimeout(timer);
    }
    return this.cutAll(signal);
  }

  /** Settles every request still running (right before the store closes): no request a client
   * saw answered is missing from the ledger. Returns how many there were. */
  settleRemaining(): number {
    const running = this.#entries.values();
    for (const entry of running) entry.settleNow();
    return running.length;
  }

  /** Ends every running request at once (a second signal, or the grace period over). */
  cutAll(signal = this.#signal): number {
    this.#draining = true;
    const running = this.#entries.values();
    for (const entry of running) entry.shutDown(shuttingDown(signal));
    return running.length;
  }
}
