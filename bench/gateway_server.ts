/**
 * The gateway as the benchmark runs it: built the way `main.ts` builds it (the governor as its
 * admitter), with the bench catalog (every provider on the fake upstream), an in-memory store and
 * two fresh keys: one with no policy, and one with every policy field set in a team that has
 * every field set too (`policies.ts`). Prints `{"port":N,"key":"gth_...","policiedKey":"gth_..."}`
 * on stdout when it listens. Info log lines are dropped when
 * `GATEHOUSE_QUIET=1` (the driver sets it). Takes `profile start` / `profile stop FILE` lines on
 * stdin (see `cpu_profile.ts`).
 *
 *   deno run -A bench/gateway_server.ts http://127.0.0.1:UPSTREAM_PORT
 * @module
 */
import { createApp } from "../app.ts";
import { startObservers } from "../observe/setup.ts";
import { keepDeadlineTimer } from "../gateway/deadlines.ts";
import { Catalog } from "../catalog/catalog.ts";
import { parseCatalogConfig } from "../catalog/parse_config.ts";
import { readGatewayConfig } from "../gateway/config.ts";
import { loggerFromEnv } from "../gateway/log.ts";
import { openStore } from "../store/open_store.ts";
import { DeploymentHealth } from "../gateway/health.ts";
import { InFlight } from "../gateway/in_flight.ts";
import { Governor } from "../governance/governor.ts";
import { BENCH_KEY_ENV, BENCH_UPSTREAM_KEY, benchCatalog } from "./bench_catalog.ts";
import { announce, exitWithParent } from "./child.ts";
import { profileCommands } from "./cpu_profile.ts";
import { benchPolicies, POLICY_TEAM } from "./policies.ts";
import { createUpstreamClient } from "../gateway/upstream_client.ts";

/** The environment the catalog and config see: only the bench credential, so no
 * `GATEHOUSE_*_URL` override of the caller's shell can send traffic elsewhere. */
function benchEnv(name: string): string | undefined {
  return name === BENCH_KEY_ENV ? BENCH_UPSTREAM_KEY : undefined;
}

/** The bench's gateway, built and not yet served. */
export interface BenchGateway {
  fetch: (request: Request) => Response | Promise<Response>;
  /** The key with no policy. */
  key: string;
  /** The key under every policy. */
  policiedKey: string;
  close(): Promise<void>;
}

/** Builds the bench's gateway in front of `upstream` (env: the process's, for the observers). */
export async function buildBenchGateway(upstream: string): Promise<BenchGateway> {
  const source = "bench catalog";
  const catalog = new Catalog(parseCatalogConfig(benchCatalog(upstream), source), benchEnv, {
    source,
  });
  const store = await openStore(":memory:");
  const { key } = await store.createKey("bench");
  const policies = benchPolicies(Date.now());
  await store.createTeam(POLICY_TEAM, policies.team);
  const { key: policiedKey } = await store.createKey({
    name: "bench-policied",
    team: POLICY_TEAM,
    policy: policies.key,
  });
  const log = loggerFromEnv((name) => Deno.env.get(name));
  keepDeadlineTimer();
  // GATEHOUSE_UPSTREAM_CLIENT=fetch in the driver's environment measures the runtime's fetch.
  const config = readGatewayConfig((name) =>
    name === "GATEHOUSE_UPSTREAM_CLIENT" ? Deno.env.get(name) : benchEnv(name)
  );
  const health = new DeploymentHealth({
    cooldownMs: config.cooldownMs,
    failures: config.cooldownFailures,
  });
  const inflight = new InFlight();
  // The observers as main.ts starts them (metrics on unless GATEHOUSE_METRICS=off in the
  // driver's environment; the request log unless GATEHOUSE_QUIET=1).
  const observers = await startObservers({
    env: (name) => Deno.env.get(name),
    log,
    catalog,
    store,
    health,
    inflight,
    worker: 0,
  });
  const app = createApp({
    catalog,
    store,
    config,
    fetch: createUpstreamClient(config.upstreamClient).fetch,
    log,
    admitter: new Governor({ store }),
    health,
    inflight,
    observer: observers.observer,
    metrics: observers.metrics,
  });
  return {
    fetch: app.fetch,
    key,
    policiedKey,
    async close() {
      await observers.close();
      await store.close();
    },
  };
}

async function main(upstream: string): Promise<void> {
  const gateway = await buildBenchGateway(upstream);
  const { key, policiedKey } = gateway;
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => announce({ port, key, policiedKey }),
  }, gateway.fetch);
  await exitWithParent(async () => {
    await server.shutdown();
    await gateway.close();
  }, profileCommands());
}

if (import.meta.main) {
  const upstream = Deno.args[0];
  if (upstream === undefined) {
    console.error("usage: deno run -A bench/gateway_server.ts <upstream root URL>");
    Deno.exit(2);
  }
  await main(upstream);
}
