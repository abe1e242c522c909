/**
 * Start-up only: read the configuration, open the store, load the catalog, build the app,
 * listen, and drain on SIGTERM/SIGINT.
 *
 *   deno task start          serve the catalog's providers
 *   deno task demo           serve every catalog model from the built-in mock provider
 * @module
 */
import { createApp } from "./app.ts";
import { loadCatalog } from "./catalog/load.ts";
import { readGatewayConfig } from "./gateway/config.ts";
import { createUpstreamClient } from "./gateway/upstream_client.ts";
import { consoleLogger } from "./gateway/log.ts";
import { openStore } from "./store/open_store.ts";
import { startDocsServer } from "./docs/mod.ts";
import { keepDeadlineTimer } from "./gateway/deadlines.ts";
import { Governor } from "./governance/governor.ts";
import { DeploymentHealth } from "./gateway/health.ts";
import { InFlight } from "./gateway/in_flight.ts";
import { gracefulShutdown } from "./gateway/shutdown.ts";

const env = (name: string) => Deno.env.get(name);

async function main(args: string[]): Promise<void> {
  const demo = args.includes("--demo") || env("GATEHOUSE_DEMO") === "1";
  const port = Number(env("PORT") ?? 8080);
  const hostname = env("HOST") ?? "0.0.0.0";
  const log = consoleLogger({ quiet: env("GATEHOUSE_QUIET") === "1" });
  const config = readGatewayConfig(env);
  const catalog = await loadCatalog({ path: env("GATEHOUSE_CONFIG"), demo, env });
  const dbPath = env("GATEHOUSE_DB") ?? "./data/gatehouse.db";
  const store = await openStore(dbPath);

  if (demo) {
    console.log(
      "gatehouse demo: every catalog model is served by the built-in mock provider (owned_by: gatehouse-mock).",
    );
  } else if (!catalog.hasAnyCredentials()) {
    console.log(
      "gatehouse: no provider credentials are set (OPENAI_API_KEY, ANTHROPIC_API_KEY), so no model can answer.\n" +
        "  Set one of them and restart, or run `deno task demo` to try gatehouse with the built-in mock provider.",
    );
  }
  if (await store.countKeys() === 0) {
    // The first key belongs to whoever runs the gateway: an admin key, so the admin API works
    // from the start (it may call every model route too).
    const { key, record } = await store.createKey({ name: "first key", admin: true });
    console.log(
      `\nNo API keys existed, so an admin key was created (id ${record.id}). It is shown once; store it now:\n\n    ${key}\n\n` +
        "It may call the admin API (/admin/v1) and every model. Give people their own keys: " +
        "`deno task keys create --name NAME [--rpm N] [--budget-usd X] ...`, " +
        "`deno task keys list`, `deno task keys revoke ID`.\n",
    );
  }

  const upstream = createUpstreamClient(config.upstreamClient);
  if (config.upstreamClient === "fetch") {
    console.log(
      "gatehouse: provider calls use the runtime's fetch (GATEHOUSE_UPSTREAM_CLIENT=fetch, or a " +
        "proxy variable such as HTTPS_PROXY is set): it honours the proxy, at lower stream throughput.",
    );
  }
  // Key and team policies: limits counted in this process, budgets' settled spend from the store.
  const admitter = new Governor({ store });
  const health = new DeploymentHealth({
    cooldownMs: config.cooldownMs,
    failures: config.cooldownFailures,
  });
  const inflight = new InFlight();
  const app = createApp({
    catalog,
    store,
    config,
    fetch: upstream.fetch,
    log,
    admitter,
    health,
    inflight,
  });
  keepDeadlineTimer();
  // The docs host (DOCS_PORT, default 8081; "off" disables it) starts first: a bad address
  // setting stops the start before the API listens.
  const docs = await startDocsServer({ gateway: app, catalog, env, hostname, apiPort: port });
  const server = Deno.serve({
    port,
    hostname,
    onListen: ({ hostname, port }) => {
      const shown = hostname === "0.0.0.0" ? "127.0.0.1" : hostname;
      console.log(
        `gatehouse listening on http://${shown}:${port} (store ${dbPath}, models listed: ${catalog.listed().length})`,
      );
    },
  }, app.fetch);

  const shutdown = gracefulShutdown({
    inflight,
    drainMs: config.drainMs,
    listeners: [server, docs],
    close: async () => {
      upstream.close();
      // Writes the ledger rows still queued.
      await store.close();
    },
    log: (line) => console.log(line),
    exit: (code) => Deno.exit(code),
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => shutdown.signal(signal));
  }
  await shutdown.done;
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    console.error(`gatehouse did not start: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
