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
import { type ConsoleLogger, loggerFromEnv } from "./gateway/log.ts";
import { openStore } from "./store/open_store.ts";
import { readClusterSettings } from "./cluster/settings.ts";
import { checkSoleInstance, createFirstKey } from "./cluster/prepare_store.ts";
import { startInstance } from "./cluster/start_instance.ts";
import { startWorkers } from "./cluster/workers.ts";
import { startupFields, startupLine } from "./cluster/startup_line.ts";
import { lifecycleLog } from "./observe/logs/events.ts";

const env = (name: string) => Deno.env.get(name);
/** This thread's logger, once the format was read (the start failure's line uses it). */
let logger: ConsoleLogger | null = null;

async function main(args: string[]): Promise<void> {
  const demo = args.includes("--demo") || env("GATEHOUSE_DEMO") === "1";
  const port = Number(env("PORT") ?? 8080);
  const hostname = env("HOST") ?? "0.0.0.0";
  // GATEHOUSE_LOG_FORMAT (text or json) and GATEHOUSE_QUIET; a bad format stops the start.
  const log = logger = loggerFromEnv(env);
  // Start-up, notices and shutdown: text on stdout, or JSON event lines in json mode.
  const say = lifecycleLog(log);
  const settings = readClusterSettings(env, args);
  const config = readGatewayConfig(env);
  const catalog = await loadCatalog({ path: env("GATEHOUSE_CONFIG"), demo, env });
  // With workers, this thread's store only prepares, holds the one-instance lock and waits:
  // the pool is the workers' (each opens its share).
  const store = await openStore(settings.database, {
    poolSize: settings.workers === 1 ? settings.dbPool : 2,
    checkpointsFromOpen: settings.workers === 1,
  });

  if (demo) {
    say(
      "gatehouse demo: every catalog model is served by the built-in mock provider (owned_by: gatehouse-mock).",
      { event: "demo" },
    );
  } else if (!catalog.hasAnyCredentials()) {
    say(
      "gatehouse: no provider credentials are set (OPENAI_API_KEY, ANTHROPIC_API_KEY), so no model can answer.\n" +
        "  Set one of them and restart, or run `deno task demo` to try gatehouse with the built-in mock provider.",
      { event: "no_credentials", level: "warn" },
    );
  }
  // The first key is shown once, to the person starting gatehouse: on stdout as text in either
  // format, never through the log sink (it is the one secret gatehouse ever prints).
  await createFirstKey(store, (text) => console.log(text));
  const warning = await checkSoleInstance(store, settings);
  if (warning !== null) log.warn(warning);
  const announce = (address: { hostname: string; port: number }, limits: { detail: string }) => {
    const facts = { address, settings, store, limits, listed: catalog.listed().length };
    // What was logged before it (a warning) is out before the start line.
    log.flushSync();
    say(startupLine(facts), { event: "start", fields: startupFields(facts) });
  };

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
      exit: (code) => {
        log.flushSync();
        Deno.exit(code);
      },
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
    log: say,
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => workers.signal(signal));
  }
  const code = await workers.done;
  // This thread's connection holds the one-instance lock on Postgres; closing releases it.
  await store.close();
  log.flushSync();
  Deno.exit(code);
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    const message = `gatehouse did not start: ${(error as Error).message}`;
    // Set by main() when it got that far (a cast: the compiler cannot see the assignment).
    const log = logger as ConsoleLogger | null;
    log?.flushSync();
    if (log?.format === "json") {
      log.event("error", "start_failed", message);
      log.flushSync();
    } else console.error(message);
    Deno.exit(1);
  }
}
