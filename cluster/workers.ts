/**
 * `--workers N`: N worker threads in this process serve one port (`Deno.serve` with `reusePort`;
 * the kernel spreads connections among them). The first thread keeps the store connection it
 * prepared with, runs no server itself, and — when there is no Redis — is the limits
 * coordinator: every worker's admissions go to one in-memory backend here over a MessagePort, so
 * limits and budgets stay exact across workers. With Redis, each worker talks to Redis itself.
 *
 * A worker that dies is started again (after a second) unless the process is stopping; its
 * holds on the coordinator are dropped. Signals are passed to every worker, which drains as a
 * single process does; the process exits once all have finished.
 * @module
 */
import { MemoryLimits } from "../governance/shared/memory_limits.ts";
import { serveLimits } from "../governance/shared/port_limits.ts";
import type { LimitsState } from "../governance/shared/create_limits.ts";
import type { ClusterSettings } from "./settings.ts";
import type { LifecycleEvent } from "../observe/logs/events.ts";
import type { FromWorker, ToWorker } from "./worker_messages.ts";
import { MetricsGatherer } from "../observe/metrics/cluster_link.ts";

/** How the workers are run. */
export interface WorkersOptions {
  settings: ClusterSettings;
  args: string[];
  hostname: string;
  /** The port every worker listens on; 0 picks a free one first (all must share it). */
  port: number;
  /** The start-up line, once every worker listens. */
  onListen(address: { hostname: string; port: number }, limits: LimitsState): void;
  /** A worker ended or could not be started again: `line` for a person, `event` for JSON. */
  log(line: string, event?: LifecycleEvent): void;
}

/** Running workers. */
export interface Workers {
  /** Passes a signal to every worker. */
  signal(name: Deno.Signal): void;
  /** Resolves with the exit code once every worker has finished after a signal. */
  readonly done: Promise<number>;
}

const RESTART_DELAY_MS = 1_000;

/** A free TCP port on `hostname`, for workers that must share one. */
function freePort(hostname: string): number {
  const listener = Deno.listen({ hostname, port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Starts the workers; resolves once every one listens, rejects when one cannot start. */
export async function startWorkers(options: WorkersOptions): Promise<Workers> {
  const { settings, log } = options;
  const port = options.port === 0 ? freePort(options.hostname) : options.port;
  const coordinator = settings.redisUrl === null ? new MemoryLimits() : null;
  // Each worker's /metrics asks this thread for every worker's series, merged.
  const metrics = new MetricsGatherer();
  const threads = new Map<number, Worker>();
  const exits: number[] = [];
  let stopping: Deno.Signal | null = null;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));

  const spawn = (
    index: number,
  ): Promise<{ hostname: string; port: number; limits: LimitsState }> => {
    const worker = new Worker(new URL("./worker.ts", import.meta.url), {
      type: "module",
      name: `gatehouse-worker-${index}`,
    });
    threads.set(index, worker);
    const channel = coordinator === null ? null : new MessageChannel();
    const metricsChannel = new MessageChannel();
    metrics.attach(index, metricsChannel.port1);
    const served = channel === null
      ? null
      : serveLimits(channel.port1, coordinator!, `worker-${index}`);
    const start: ToWorker = {
      type: "start",
      worker: index,
      args: options.args,
      hostname: options.hostname,
      port,
      limitsPort: channel?.port2,
      metricsPort: metricsChannel.port2,
    };
    worker.postMessage(start, [...(channel === null ? [] : [channel.port2]), metricsChannel.port2]);
    return new Promise((resolve, reject) => {
      const gone = (code: number, why: string) => {
        if (threads.get(index) !== worker) return;
        threads.delete(index);
        worker.terminate();
        // Its requests in flight are gone with it: their holds on the coordinator go too.
        void served?.close();
        metrics.detach(index);
        reject(new Error(`worker ${index}: ${why}`));
        if (stopping !== null) {
          exits.push(code);
          if (threads.size === 0) finish(Math.max(0, ...exits));
          return;
        }
        log(`gatehouse: worker ${index} ended (${why}); starting it again in 1 s`, {
          event: "worker_ended",
          level: "warn",
          fields: { worker: index, reason: why, restartInMs: RESTART_DELAY_MS },
        });
        setTimeout(() => {
          if (stopping !== null) return;
          spawn(index).catch((error) =>
            log(`gatehouse: ${error.message}`, {
              event: "worker_start_failed",
              level: "error",
              fields: { worker: index, error: error.message },
            })
          );
        }, RESTART_DELAY_MS);
      };
      worker.onmessage = ({ data }: MessageEvent<FromWorker>) => {
        switch (data.type) {
          case "listening":
            resolve(data);
            return;
          case "failed":
            gone(1, `could not start: ${data.message}`);
            return;
          case "exited":
            gone(data.code, `exited with ${data.code}`);
            return;
          default: {
            const never: never = data;
            throw new Error(`unknown message ${JSON.stringify(never)}`);
          }
        }
      };
      worker.onerror = (event) => {
        event.preventDefault();
        gone(1, `crashed: ${event.message}`);
      };
    });
  };

  const indexes = Array.from({ length: settings.workers }, (_, i) => i);
  const started = await Promise.allSettled(indexes.map(spawn));
  const failed = started.find((result) => result.status === "rejected");
  if (failed !== undefined) {
    stopping = "SIGTERM";
    for (const worker of threads.values()) worker.terminate();
    throw (failed as PromiseRejectedResult).reason;
  }
  const first = (started[0] as PromiseFulfilledResult<{
    hostname: string;
    port: number;
    limits: LimitsState;
  }>).value;
  options.onListen(first, first.limits);
  return {
    signal(name) {
      stopping ??= name;
      const message: ToWorker = { type: "signal", name };
      for (const worker of threads.values()) worker.postMessage(message);
      if (threads.size === 0) finish(0);
    },
    done,
  };
}
