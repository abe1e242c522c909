/**
 * The graceful shutdown `main.ts` runs on SIGTERM or SIGINT. The first signal drains: `/readyz`
 * turns 503 and new model requests are refused (both read `InFlight.draining`), the listeners
 * stop accepting, requests in flight run to their end for up to the grace period and what still
 * runs then is ended with the client protocol's terminal error; once the servers finished, the
 * upstream client and the store are closed (the store writes its queued ledger rows) and the
 * process exits 0. A second signal ends everything at once, writes the rows and exits 0.
 * @module
 */
import type { InFlight } from "./in_flight.ts";
import type { LifecycleEvent } from "../observe/logs/events.ts";

/** A listener to stop: `Deno.HttpServer`, or the docs host. */
export interface Listener {
  /** Stops accepting; resolves once the responses in flight are done. */
  shutdown(): Promise<void>;
  finished: Promise<void>;
}

/** What a shutdown stops, and how it reports and exits. */
export interface ShutdownParts {
  inflight: InFlight;
  /** How long requests in flight may run to their end, ms. */
  drainMs: number;
  listeners: Listener[];
  /** Closes what the requests used (upstream client, store); runs once, after the requests. */
  close(): Promise<void>;
  /** Reports a step: `line` for a person, `event` for a JSON log line. */
  log(line: string, event?: LifecycleEvent): void;
  exit(code: number): void;
  /** How long to wait, once the requests were ended, for their responses to be done and their
   * rows settled, ms (default {@link SETTLE_MS}). */
  settleMs?: { afterDrain: number; afterSecondSignal: number };
}

/** The default waits after the requests were ended: ending a response still has to reach its
 * client, and a client that does not read must not hold the process for long. */
export const SETTLE_MS = { afterDrain: 5_000, afterSecondSignal: 500 } as const;

/** Waits until the servers finished and no request is tracked (they settled), at most `ms`;
 * true when that happened in time. */
async function quiet(listeners: Listener[], inflight: InFlight, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const finished = Promise.all(listeners.map((listener) => listener.finished)).then(() => true);
  try {
    if (!await Promise.race([finished, late])) return false;
    // A settle may follow its response's end by a turn or two; a shutdown happens once, so a
    // short poll is simpler than a second notification in InFlight.
    while (inflight.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return inflight.size === 0;
  } finally {
    clearTimeout(timer);
  }
}

/** The shutdown; call {@link Shutdown.signal} from each signal listener. */
export interface Shutdown {
  /** A signal arrived (the first drains, a later one ends everything at once). */
  signal(name: Deno.Signal): void;
  /** Resolves when the shutdown is over, right before `exit`. */
  readonly done: Promise<void>;
}

/** Builds the shutdown for `parts`. */
export function gracefulShutdown(parts: ShutdownParts): Shutdown {
  const { inflight, listeners, log, settleMs = SETTLE_MS } = parts;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  let signals = 0;
  let ending: Promise<void> | null = null;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const end = () => {
    // A response still open now (a client that does not read) gets its row all the same.
    const left = inflight.settleRemaining();
    if (left > 0) {
      log(`gatehouse: ${plural(left, "response")} still open; recorded as ended`, {
        event: "responses_ended",
        level: "warn",
        fields: { responses: left },
      });
    }
    return ending ??= parts.close().then(
      () => 0,
      (error) => {
        const message = error instanceof Error ? error.message : String(error);
        log(`gatehouse: closing failed: ${message}`, {
          event: "close_failed",
          level: "error",
          fields: { error: message },
        });
        return 1;
      },
    ).then((code) => {
      log(`gatehouse stopped (exit ${code})`, { event: "exit", fields: { code } });
      finish();
      parts.exit(code);
    });
  };

  const drain = async (name: Deno.Signal) => {
    log(
      `gatehouse draining: ${plural(inflight.size, "request")} in flight, up to ${
        parts.drainMs / 1000
      } s`,
      {
        event: "drain",
        fields: { signal: name, inFlight: inflight.size, drainSeconds: parts.drainMs / 1000 },
      },
    );
    const drained = inflight.drain(parts.drainMs, name);
    for (const listener of listeners) {
      listener.shutdown().catch((error) =>
        log(`gatehouse: stopping a listener failed: ${error}`, {
          event: "listener_stop_failed",
          level: "error",
          fields: { error: String(error) },
        })
      );
    }
    const ended = await drained;
    if (ended > 0) {
      log(`gatehouse: ended ${plural(ended, "request")} still running`, {
        event: "drain_ended",
        level: "warn",
        fields: { requests: ended },
      });
    }
    if (!await quiet(listeners, inflight, settleMs.afterDrain)) {
      log("gatehouse: responses still open after the drain; closing anyway", {
        event: "responses_open",
        level: "warn",
      });
    }
    await end();
  };

  const cut = async (name: Deno.Signal) => {
    const ended = inflight.cutAll(name);
    log(`gatehouse: ${name} again: ended ${plural(ended, "request")} at once`, {
      event: "drain_cut",
      level: "warn",
      fields: { signal: name, requests: ended },
    });
    await quiet(listeners, inflight, settleMs.afterSecondSignal);
    await end();
  };

  return {
    signal(name) {
      signals++;
      void (signals === 1 ? drain(name) : cut(name));
    },
    done,
  };
}
