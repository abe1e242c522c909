/**
 * One scrape sees the whole process when it runs workers (`--workers N`): each worker thread is
 * an isolate with its own registry, so the first thread gathers every worker's series
 * (`getMetricsAsJSON`) over a MessagePort per worker and merges them with prom-client's
 * `AggregatorRegistry.aggregate` (counters, histograms and per-process gauges summed; a gauge
 * every worker reads from the same store, such as budget remaining, by its own aggregator).
 * A worker's `/metrics` (API port or METRICS_PORT) asks the first thread for that merge.
 * @module
 */
import client from "prom-client";

/** The series of one scrape in the Prometheus text format. */
export interface Exposition {
  contentType: string;
  text: string;
}

/** One registry's series as `getMetricsAsJSON` gives them. */
type MetricsJson = Awaited<ReturnType<client.Registry["getMetricsAsJSON"]>>;

/** The messages on a worker's metrics port. */
export type MetricsMessage =
  /** worker → first thread: a scrape arrived; answer with the whole process. */
  | { type: "scrape"; id: number }
  /** first thread → worker: the merged exposition (or why there is none). */
  | { type: "scraped"; id: number; exposition: Exposition | null; error?: string }
  /** first thread → worker: send your series. */
  | { type: "collect"; id: number }
  /** worker → first thread: its series. */
  | { type: "collected"; id: number; metrics: MetricsJson | null };

/** How long the first thread waits for one worker's series (a worker restarting is left out). */
export const COLLECT_TIMEOUT_MS = 3_000;

/** Waits for answers by id. */
class Pending<T> {
  #next = 1;
  readonly #waiting = new Map<number, (value: T) => void>();

  /** A new id and the promise of its answer (`fallback` after `timeoutMs`). */
  open(timeoutMs: number, fallback: T): { id: number; answer: Promise<T> } {
    const id = this.#next++;
    const answer = new Promise<T>((resolve) => {
      const timer = setTimeout(() => this.settle(id, fallback), timeoutMs);
      this.#waiting.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
    return { id, answer };
  }

  settle(id: number, value: T): void {
    const resolve = this.#waiting.get(id);
    this.#waiting.delete(id);
    resolve?.(value);
  }
}

/** The first thread's side: gathers every worker's series and merges them. */
export class MetricsGatherer {
  readonly #ports = new Map<number, MessagePort>();
  readonly #collects = new Pending<MetricsJson | null>();

  /** Serves worker `index` on `port` (its previous port, after a restart, is closed). */
  attach(index: number, port: MessagePort): void {
    this.detach(index);
    this.#ports.set(index, port);
    port.onmessage = ({ data }: MessageEvent<MetricsMessage>) => {
      if (data.type === "collected") this.#collects.settle(data.id, data.metrics);
      else if (data.type === "scrape") {
        this.gather().then(
          (exposition) => port.postMessage({ type: "scraped", id: data.id, exposition }),
          (error) =>
            port.postMessage({
              type: "scraped",
              id: data.id,
              exposition: null,
              error: String(error),
            }),
        );
      }
    };
  }

  /** Stops serving worker `index` (it ended). */
  detach(index: number): void {
    this.#ports.get(index)?.close();
    this.#ports.delete(index);
  }

  /** Every worker's series, merged. */
  async gather(): Promise<Exposition> {
    const answers = [...this.#ports.values()].map((port) => {
      const { id, answer } = this.#collects.open(COLLECT_TIMEOUT_MS, null);
      port.postMessage({ type: "collect", id } satisfies MetricsMessage);
      return answer;
    });
    const all = (await Promise.all(answers)).filter((m): m is MetricsJson => m !== null);
    const merged = client.AggregatorRegistry.aggregate(all);
    return { contentType: merged.contentType, text: await merged.metrics() };
  }

  /** Closes every port. */
  close(): void {
    for (const index of [...this.#ports.keys()]) this.detach(index);
  }
}

/** A worker's side: sends its series when asked, and asks for the whole process's. */
export class WorkerMetricsLink {
  readonly #port: MessagePort;
  readonly #scrapes = new Pending<{ exposition: Exposition | null; error?: string }>();

  constructor(port: MessagePort, registry: client.Registry) {
    this.#port = port;
    port.onmessage = ({ data }: MessageEvent<MetricsMessage>) => {
      if (data.type === "scraped") this.#scrapes.settle(data.id, data);
      else if (data.type === "collect") {
        registry.getMetricsAsJSON().then(
          (metrics) => port.postMessage({ type: "collected", id: data.id, metrics }),
          () => port.postMessage({ type: "collected", id: data.id, metrics: null }),
        );
      }
    };
  }

  /** The whole process's series, merged by the first thread. */
  async scrape(): Promise<Exposition> {
    const { id, answer } = this.#scrapes.open(COLLECT_TIMEOUT_MS * 2, {
      exposition: null,
      error: "the first thread did not answer",
    });
    this.#port.postMessage({ type: "scrape", id } satisfies MetricsMessage);
    const { exposition, error } = await answer;
    if (exposition === null) throw new Error(`metrics of the workers: ${error}`);
    return exposition;
  }

  /** Closes the port. */
  close(): void {
    this.#port.close();
  }
}
