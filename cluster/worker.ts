/**
 * A worker thread's entry (`--workers N`): waits for its start message, opens its own store
 * connection, loads the catalog and runs one instance on the shared port; forwards signals to the
 * instance's shutdown and reports when it is over.
 * @module
 */
import { loadCatalog } from "../catalog/load.ts";
import { readGatewayConfig } from "../gateway/config.ts";
import { loggerFromEnv } from "../gateway/log.ts";
import { stderrSink } from "../observe/logs/sink.ts";
import { openStore } from "../store/open_store.ts";
import { type Instance, startInstance } from "./start_instance.ts";
import { readClusterSettings, workerPoolSize } from "./settings.ts";
import type { FromWorker, ToWorker } from "./worker_messages.ts";

/** The worker's side of its thread. */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker): void;
  close(): void;
}

const scope = globalThis as unknown as WorkerScope;
const env = (name: string) => Deno.env.get(name);
let instance: Instance | null = null;
/** Signals that came while the instance was starting, passed on once it runs. */
const early: Deno.Signal[] = [];

async function start(message: Extract<ToWorker, { type: "start" }>): Promise<void> {
  const demo = message.args.includes("--demo") || env("GATEHOUSE_DEMO") === "1";
  const settings = readClusterSettings(env, message.args);
  const log = loggerFromEnv(env, message.worker);
  const catalog = await loadCatalog({ path: env("GATEHOUSE_CONFIG"), demo, env });
  const store = await openStore(settings.database, {
    poolSize: workerPoolSize(settings),
    checkpointsFromOpen: true,
  });
  instance = await startInstance({
    env,
    settings,
    config: readGatewayConfig(env),
    catalog,
    store,
    log,
    worker: message.worker,
    limitsPort: message.limitsPort,
    metricsPort: message.metricsPort,
    hostname: message.hostname,
    port: message.port,
    docs: message.worker === 0,
    onListen: ({ hostname, port }, limits) => {
      // This worker's lines so far are out before the process's start line.
      log.flushSync();
      scope.postMessage({ type: "listening", hostname, port, limits });
    },
    exit: (code) => {
      // A worker's exit runs no `unload`: its buffered lines are written here.
      log.flushSync();
      scope.postMessage({ type: "exited", code });
      scope.close();
    },
  });
  for (const name of early.splice(0)) instance.signal(name);
}

scope.onmessage = ({ data }) => {
  switch (data.type) {
    case "start":
      start(data).catch((error) => {
        stderrSink().flushSync();
        scope.postMessage({ type: "failed", message: (error as Error).message });
        scope.close();
      });
      return;
    case "signal":
      if (instance === null) early.push(data.name);
      else instance.signal(data.name);
      return;
    default: {
      const never: never = data;
      throw new Error(`unknown message ${JSON.stringify(never)}`);
    }
  }
};
