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
import { startTracing } from "./tracing/start_tracing.ts";
import { startRequestLogs } from "./logs/setup.ts";
import { startMetrics } from "./metrics/setup.ts";
import type { MetricsEndpoint } from "./metrics/metrics.ts";
import type { LimitsState } from "../governance/shared/create_limits.ts";

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
  /** Where limits are counted now (the metrics' `gatehouse_limits_ready`). */
  limits?: () => LimitsState;
  /** A worker's metrics port to the first thread (`--workers N`). */
  metricsPort?: MessagePort;
}

/** The running observers of one instance. */
export interface Observers {
  /** What the gateway's deps take; undefined when nothing observes requests. */
  observer: Observer | undefined;
  /** What `/metrics` serves; undefined when metrics are off (`GATEHOUSE_METRICS=off`). */
  metrics: MetricsEndpoint | undefined;
  /** Flushes and stops them (the shutdown's last step before the store closes). */
  close(): Promise<void>;
}

/** Starts the observers `parts.env` asks for. */
export async function startObservers(parts: ObserverParts): Promise<Observers> {
  const observers: Observer[] = [];
  const closers: Array<() => Promise<void>> = [];
  const logs = startRequestLogs(parts);
  if (logs.observer !== null) observers.push(logs.observer);
  const metrics = startMetrics(parts);
  if (metrics !== undefined) {
    observers.push(metrics.observer);
    closers.push(metrics.close);
  }
  const tracing = await startTracing(parts.env, parts.log);
  if (tracing !== null) {
    observers.push(tracing.observer);
    closers.push(tracing.close);
  }
  return {
    observer: combineObservers(
      observers,
      (error) => parts.log.error("an observer failed", { error: String(error) }),
    ),
    metrics,
    async close() {
      for (const close of closers) await close().catch(() => {});
      // Last: the lines the other observers' closing wrote go out too.
      await logs.close();
    },
  };
}
