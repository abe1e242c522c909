/**
 * The metrics of one instance as its settings ask (`observe/setup.ts` calls this): none with
 * `GATEHOUSE_METRICS=off`.
 * @module
 */
import type { Catalog } from "../../catalog/catalog.ts";
import type { Env } from "../../gateway/config.ts";
import type { DeploymentHealth } from "../../gateway/health.ts";
import type { InFlight } from "../../gateway/in_flight.ts";
import type { LimitsState } from "../../governance/shared/create_limits.ts";
import type { Store } from "../../store/store.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { readMetricsSettings } from "./settings.ts";

/** What the instance's metrics read. */
export interface MetricsParts {
  env: Env;
  catalog: Catalog;
  store: Store;
  health: DeploymentHealth;
  inflight: InFlight;
  limits?: () => LimitsState;
  /** A worker's port to the first thread (`--workers N`). */
  metricsPort?: MessagePort;
  /** This worker's number (0 when there is one). */
  worker: number;
}

/** The instance's metrics, or undefined when they are off. */
export function startMetrics(parts: MetricsParts): Metrics | undefined {
  const settings = readMetricsSettings(parts.env);
  if (!settings.enabled) {
    parts.metricsPort?.close();
    return undefined;
  }
  return createMetrics({
    settings,
    catalog: parts.catalog,
    store: parts.store,
    health: () => parts.health,
    inflight: parts.inflight,
    limits: parts.limits,
    port: parts.metricsPort,
    worker: parts.worker,
  });
}
