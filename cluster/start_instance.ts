/**
 * One serving gateway: its limits, its app, its listener (and the docs host on the first worker),
 * its Redis key-change subscription, and the graceful shutdown that stops them. `main.ts` runs one
 * in its own thread; with `--workers N` each worker thread runs one on the same port.
 * @module
 */
import { createApp } from "../app.ts";
import type { Catalog } from "../catalog/catalog.ts";
import type { Env, GatewayConfig } from "../gateway/config.ts";
import type { Logger } from "../gateway/exchange.ts";
import { createUpstreamClient } from "../gateway/upstream_client.ts";
import { startDocsServer } from "../docs/mod.ts";
import { keepDeadlineTimer } from "../gateway/deadlines.ts";
import { DeploymentHealth } from "../gateway/health.ts";
import { InFlight } from "../gateway/in_flight.ts";
import { startMemoryTrim } from "./memory_trim.ts";
import { gracefulShutdown, type Listener } from "../gateway/shutdown.ts";
import { createLimits, type LimitsState } from "../governance/shared/create_limits.ts";
import type { Store } from "../store/store.ts";
import { startObservers } from "../observe/setup.ts";
import { serveMetricsPort } from "../observe/metrics/metrics_server.ts";
import { lifecycleLog } from "../observe/logs/events.ts";
import { type KeyEvents, shareKeyChanges } from "./key_events.ts";
import type { ClusterSettings } from "./settings.ts";

/** How long a start waits for Redis before serving with it unreachable (and saying so). */
const REDIS_START_WAIT_MS = 3_000;

/** What one instance is built from. */
export interface InstanceParts {
  env: Env;
  settings: ClusterSettings;
  config: GatewayConfig;
  catalog: Catalog;
  /** Opened by the caller; closed by the instance's shutdown. */
  store: Store;
  log: Logger;
  /** This worker's number (0 when there is one). */
  worker: number;
  /** The coordinator's port, when workers share limits without Redis. */
  limitsPort?: MessagePort;
  /** The first thread's metrics port, with workers (a scrape covers them all). */
  metricsPort?: MessagePort;
  hostname: string;
  port: number;
  /** Whether this instance also serves the docs host (the first worker only). */
  docs: boolean;
  /** Called once the API listens. */
  onListen(address: { hostname: string; port: number }, limits: LimitsState): void;
  /** Ends the thread or process once the shutdown is over. */
  exit(code: number): void;
}

/** A running instance. */
export interface Instance {
  /** A signal arrived: the first drains, a later one ends everything at once. */
  signal(name: Deno.Signal): void;
  readonly done: Promise<void>;
}

/** Starts an instance; resolves once it listens. */
export async function startInstance(parts: InstanceParts): Promise<Instance> {
  const { settings, config, catalog, store, log } = parts;
  const limits = createLimits({
    redisUrl: settings.redisUrl ?? undefined,
    onRedisDown: settings.onRedisDown,
    store,
    log,
    port: parts.limitsPort,
  });
  const keyEvents: KeyEvents | null = settings.redisUrl === null ? null : shareKeyChanges({
    redisUrl: settings.redisUrl,
    store,
    instanceId: `${crypto.randomUUID()}/${parts.worker}`,
    log,
  });
  await limits.ready(REDIS_START_WAIT_MS);
  const state = limits.state();
  if (settings.redisUrl !== null && !state.shared) log.warn(`limits: ${state.detail}`);
  const upstream = createUpstreamClient(config.upstreamClient);
  const health = new DeploymentHealth({
    cooldownMs: config.cooldownMs,
    failures: config.cooldownFailures,
  });
  const inflight = new InFlight();
  const stopTrim = startMemoryTrim(inflight, settings.memoryTrimMb, log, parts.worker);
  const observers = await startObservers({
    env: parts.env,
    log,
    catalog,
    store,
    health,
    inflight,
    worker: parts.worker,
    limits: () => limits.state(),
    metricsPort: parts.metricsPort,
  });
  const app = createApp({
    catalog,
    store,
    config,
    fetch: upstream.fetch,
    log,
    admitter: limits.admitter,
    limits: () => {
      const state = limits.state();
      // Only Redis down in `reject` mode refuses: `redis` without being shared.
      return { detail: state.detail, ready: state.shared || state.backend !== "redis" };
    },
    health,
    inflight,
    observer: observers.observer,
    metrics: observers.metrics,
  });
  keepDeadlineTimer();
  const listeners: Listener[] = [];
  // The docs host (DOCS_PORT, default 8081; "off" disables it) starts first: a bad address
  // setting stops the start before the API listens.
  if (parts.docs) {
    listeners.push(
      await startDocsServer({
        gateway: app,
        catalog,
        env: parts.env,
        hostname: parts.hostname,
        apiPort: parts.port,
      }),
    );
  }
  const metricsListener = await serveMetricsPort({
    env: parts.env,
    hostname: parts.hostname,
    worker: parts.worker,
    endpoint: observers.metrics,
    log,
  });
  if (metricsListener !== null) listeners.push(metricsListener);
  let listening: (address: { hostname: string; port: number }) => void = () => {};
  const listened = new Promise<{ hostname: string; port: number }>((resolve) =>
    listening = resolve
  );
  const server = Deno.serve({
    port: parts.port,
    hostname: parts.hostname,
    // Workers share the port; the kernel spreads connections among them (Linux SO_REUSEPORT).
    reusePort: settings.workers > 1,
    onListen: (address) => listening(address),
  }, app.fetch);
  listeners.push(server);
  parts.onListen(await listened, limits.state());

  const shutdown = gracefulShutdown({
    inflight,
    drainMs: config.drainMs,
    listeners,
    close: async () => {
      stopTrim();
      upstream.close();
      await keyEvents?.close();
      await limits.close();
      await observers.close();
      // Writes the ledger rows still queued.
      await store.close();
    },
    log: lifecycleLog(log, parts.worker),
    exit: parts.exit,
  });
  return shutdown;
}
