/**
 * Builds a gateway for tests: an in-memory store with one key, a catalog (the default one in demo
 * mode unless told otherwise), a quiet logger, and optionally a live listener.
 * @module
 */
import { createApp } from "../app.ts";
import { Catalog } from "../catalog/catalog.ts";
import { loadCatalog } from "../catalog/load.ts";
import { readGatewayConfig } from "../gateway/config.ts";
import { createUpstreamClient } from "../gateway/upstream_client.ts";
import type { GatewayDeps } from "../gateway/exchange.ts";
import { consoleLogger, memoryLogger } from "../gateway/log.ts";
import { combineObservers } from "../observe/observer.ts";
import { logHealthChanges } from "../observe/logs/events.ts";
import { requestLogObserver } from "../observe/logs/request_log.ts";
import { memorySink } from "../observe/logs/sink.ts";
import { collectOnce, collectRun, memoryLine, secretsOfEnv } from "./logs/collect.ts";
import { openSqliteStore } from "../store/sqlite/sqlite_store.ts";
import type { Store, UsageRecord } from "../store/store.ts";
import type { Admitter } from "../gateway/admission.ts";
import { Governor } from "../governance/governor.ts";
import { DeploymentHealth } from "../gateway/health.ts";
import { InFlight } from "../gateway/in_flight.ts";
import { createMetrics } from "../observe/metrics/metrics.ts";
import { readMetricsSettings } from "../observe/metrics/settings.ts";

/** The environment that points both built-in providers at one fake upstream root, with
 * credentials the fakes can check for. */
export function upstreamEnv(url: string): Record<string, string> {
  return {
    OPENAI_API_KEY: "sk-upstream-openai",
    ANTHROPIC_API_KEY: "sk-ant-upstream",
    GATEHOUSE_OPENAI_URL: url,
    GATEHOUSE_ANTHROPIC_URL: url,
  };
}

/** Options for a test gateway. */
export interface HarnessOptions {
  /** Environment seen by the catalog and config (provider keys, URL overrides). */
  env?: Record<string, string>;
  /** Serve everything from the mock provider (default true when `catalog` is absent). */
  demo?: boolean;
  /** A ready catalog instead of the default. */
  catalog?: Catalog;
  /** The admit stage's limits (default: a {@link Governor} on the harness's store, as
   * `main.ts` builds; the harness's keys have no policy, so it admits everything). */
  admitter?: Admitter;
  /** The default governor's clock, unix milliseconds (a test shifts it to place admissions in
   * the past or the future); `Date.now` by default. */
  clock?: () => number;
}

/** A test gateway. */
export interface Harness {
  app: ReturnType<typeof createApp>;
  deps: GatewayDeps;
  key: string;
  /** An admin key (may call the admin routes and every model route). */
  adminKey: string;
  logs: ReturnType<typeof memoryLogger>["lines"];
  /** Every ledger row the gateway wrote, in order (also written to the store). */
  rows: UsageRecord[];
  /** `fetch`-like call into the app (no network). */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/** Creates a test gateway. */
export async function makeHarness(options: HarnessOptions = {}): Promise<Harness> {
  const envMap = options.env ?? {};
  const env = (name: string) => envMap[name];
  const catalog = options.catalog ?? await loadCatalog({ demo: options.demo ?? true, env });
  const sqlite = openSqliteStore(":memory:");
  const { key } = await sqlite.createKey("test");
  const { key: adminKey } = await sqlite.createKey({ name: "admin", admin: true });
  const rows: UsageRecord[] = [];
  const recordUsage = (row: UsageRecord) => {
    rows.push(row);
    return sqlite.recordUsage(row);
  };
  // The SQLite store with its ledger writes also kept in `rows` (its methods bound to it: they
  // use private fields).
  const store: Store = new Proxy(sqlite, {
    get(target, name) {
      if (name === "recordUsage") return recordUsage;
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const log = memoryLogger();
  const config = readGatewayConfig(env);
  const upstream = createUpstreamClient(config.upstreamClient);
  const deps: GatewayDeps = {
    catalog,
    store,
    config,
    fetch: upstream.fetch,
    log,
    admitter: options.admitter ?? new Governor({ store, now: options.clock }),
    health: new DeploymentHealth({
      cooldownMs: config.cooldownMs,
      failures: config.cooldownFailures,
      now: options.clock,
    }),
    inflight: new InFlight(),
  };
  // Metrics as an instance builds them (on unless GATEHOUSE_METRICS=off), reading the breakers
  // through deps so that resetHealth's swap is seen.
  const metricsSettings = readMetricsSettings(env);
  if (metricsSettings.enabled) {
    const metrics = createMetrics({
      catalog,
      store,
      inflight: deps.inflight,
      health: () => deps.health,
      settings: metricsSettings,
    });
    deps.observer = metrics.observer;
    deps.metrics = metrics;
  }
  // The request log and deployment health lines as an instance writes them (JSON), kept apart
  // from `logs`; both go to the suite's log scan when the harness closes (tests/logs/collect.ts).
  const logged = memorySink();
  const requestLog = consoleLogger({ format: "json", sink: logged });
  logHealthChanges(deps.health, requestLog);
  deps.observer = combineObservers(
    deps.observer === undefined
      ? [requestLogObserver(requestLog)]
      : [deps.observer, requestLogObserver(requestLog)],
  );
  const collect = collectOnce(() =>
    collectRun({
      source: "harness",
      lines: [...log.lines.map(memoryLine), ...logged.lines],
      secrets: [key, adminKey, ...secretsOfEnv(envMap)],
    })
  );
  const app = createApp(deps);
  return {
    app,
    deps,
    key,
    adminKey,
    logs: log.lines,
    rows,
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(init.json);
      }
      return Promise.resolve(app.request(path, { ...init, headers, body }));
    },
    close: () => {
      collect();
      upstream.close();
      return sqlite.close();
    },
  };
}

/** Forgets every deployment's failures (a test that makes an upstream fail on purpose calls it
 * so the next test does not find the deployment cooling down). */
export function resetHealth(harness: Harness): void {
  const { config } = harness.deps;
  harness.deps.health = new DeploymentHealth({
    cooldownMs: config.cooldownMs,
    failures: config.cooldownFailures,
  });
}

/** Serves `harness.app` on a loopback port; returns its root URL and a closer. */
export function listen(harness: Harness): { url: string; close: () => Promise<void> } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    harness.app.fetch,
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** A chat request to `gpt-5` by the harness's first key, for a test that drives a `Lifecycle`
 * by hand, with the model it resolves to. */
export async function chatRequestOf(harness: Harness) {
  const key = (await harness.deps.store.listKeys())[0]!;
  const request = {
    route: "/v1/chat/completions",
    body: { model: "gpt-5" },
    signal: new AbortController().signal,
    key,
  };
  const model = harness.deps.catalog.resolve("gpt-5");
  if (model === null) throw new Error("the demo catalog has gpt-5");
  return { request, model };
}
