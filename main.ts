/**
 * Start-up only: read the settings, open and prepare the store, then serve — in this thread, or
 * with `--workers N` (`GATEHOUSE_WORKERS`) in N worker threads on one port — and drain on
 * SIGTERM/SIGINT.
 *
 *   deno task start                 serve the catalog's providers
 *   deno task start --workers 4     the same on 4 worker threads
 *   deno task demo                  serve every catalog model from the built-in mock provider
 * @module
 */
import { loadCatalog } from "./catalog/load.ts";
import { readGatewayConfig } from "./gateway/config.ts";
import { consoleLogger } from "./gateway/log.ts";
import { openStore } from "./store/open_store.ts";
import { readClusterSettings } from "./cluster/settings.ts";
import { checkSoleInstance, createFirstKey } from "./cluster/prepare_store.ts";
import { startInstance } from "./cluster/start_instance.ts";
import { startWorkers } from "./cluster/workers.ts";
import { startupLine } from "./cluster/startup_line.ts";

const env = (name: string) => Deno.env.get(name);

async function main(args: string[]): Promise<void> {
  const demo = args.includes("--demo") || env("GATEHOUSE_DEMO") === "1";
  const port = Number(env("PORT") ?? 8080);
  const hostname = env("HOST") ?? "0.0.0.0";
  const log = consoleLogger({ quiet: env("GATEHOUSE_QUIET") === "1" });
  const settings = readClusterSettings(env, args);
  const config = readGatewayConfig(env);
  const catalog = await loadCatalog({ path: env("GATEHOUSE_CONFIG"), demo, env });
  // With workers, this thread's store only prepares, holds the one-instance lock and waits:
  // the pool is the workers' (each opens its share).
  const store = await openStore(settings.database, {
    poolSize: settings.workers === 1 ? settings.dbPool : 2,
  });

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
  await createFirstKey(store, (text) => console.log(text));
  const warning = await checkSoleInstance(store, settings);
  if (warning !== null) log.warn(warning);
  const announce = (address: { hostname: string; port: number }, limits: { detail: string }) =>
    console.log(startupLine({ address, settings, store, limits, listed: catalog.listed().length }));

  if (settings.workers === 1) {
    const instance = await startInstance({
      env,
      settings,
      config,
      catalog,
      store,
      log,
      worker: 0,
      hostname,
      port,
      docs: true,
      onListen: announce,
      exit: (code) => Deno.exit(code),
    });
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, () => instance.signal(signal));
    }
    await instance.done;
    return;
  }
  const workers = await startWorkers({
    settings,
    args,
    hostname,
    port,
    onListen: announce,
    log: (line) => console.log(line),
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => workers.signal(signal));
  }
  const code = await workers.done;
  // This thread's connection holds the one-instance lock on Postgres; closing releases it.
  await store.close();
  Deno.exit(code);
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    console.error(`gatehouse did not start: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
