/**
 * An instance's Prometheus metrics: its registry and series, the observer that updates them,
 * the scrape-time gauges, and the exposition `/metrics` serves (the whole process's when this
 * instance is one worker of several: `cluster_link.ts`).
 * @module
 */
import type { Observer } from "../observer.ts";
import { type Exposition, WorkerMetricsLink } from "./cluster_link.ts";
import { metricsObserver } from "./metrics_observer.ts";
import { collectGauges, type GaugeSources } from "./scrape_gauges.ts";
import { createSeries, type Series } from "./series.ts";
import type { MetricsSettings } from "./settings.ts";

export type { Exposition } from "./cluster_link.ts";

/** What `/metrics` reads: the instance's (or its process's) series. */
export interface MetricsEndpoint {
  /** The series in the Prometheus text format. */
  scrape(): Promise<Exposition>;
}

/** An instance's metrics. */
export interface Metrics extends MetricsEndpoint {
  observer: Observer;
  series: Series;
  /** Closes the port to the first thread, if any. */
  close(): Promise<void>;
}

/** What the metrics are built from. */
export interface MetricsOptions extends GaugeSources {
  settings: Pick<MetricsSettings, "keyLabels">;
  /** A worker's port to the first thread (`--workers N`): a scrape then covers every worker. */
  port?: MessagePort;
  /** This worker's number, with `port`: its series carry it as the `worker` label. */
  worker?: number;
}

/** Builds an instance's metrics. */
export function createMetrics(options: MetricsOptions): Metrics {
  const series = createSeries(options.settings.keyLabels);
  // Each worker's series stay its own through the merge: a worker that restarts (its counters
  // back at zero) or misses a scrape resets or drops only its series, which Prometheus handles,
  // instead of pulling the merged totals down (read as a reset of the whole process).
  if (options.port !== undefined) {
    series.registry.setDefaultLabels({ worker: String(options.worker ?? 0) });
  }
  collectGauges(series, options);
  const observer = metricsObserver(series, {
    keyLabels: options.settings.keyLabels,
    models: options.catalog.models().map((model) => model.id),
  });
  const link = options.port === undefined
    ? null
    : new WorkerMetricsLink(options.port, series.registry);
  const own = async (): Promise<Exposition> => ({
    contentType: series.registry.contentType,
    text: await series.registry.metrics(),
  });
  return {
    observer,
    series,
    scrape: link === null ? own : () => link.scrape(),
    close: () => {
      link?.close();
      return Promise.resolve();
    },
  };
}
