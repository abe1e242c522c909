/**
 * Child process of `tracing_lazy_test.ts`: starts an instance's observers as
 * `cluster/start_instance.ts` does (`observe/setup.ts`, from this process's environment), closes
 * them, and prints the log lines as JSON on stdout. It imports only gateway modules (no test
 * kit), so what it loads is what a gateway loads.
 * @module
 */
import { loadCatalog } from "../../catalog/load.ts";
import { DeploymentHealth } from "../../gateway/health.ts";
import { InFlight } from "../../gateway/in_flight.ts";
import { startObservers } from "../../observe/setup.ts";
import { openSqliteStore } from "../../store/sqlite/sqlite_store.ts";

const env = (name: string) => Deno.env.get(name);
const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
const log = {
  info: (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level: "info", message, fields }),
  warn: (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level: "warn", message, fields }),
  error: (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level: "error", message, fields }),
};
const store = openSqliteStore(":memory:");
const observers = await startObservers({
  env,
  log,
  catalog: await loadCatalog({ demo: true, env }),
  store,
  health: new DeploymentHealth({ cooldownMs: 1000, failures: 3 }),
  inflight: new InFlight(),
  worker: 0,
});
await observers.close();
await store.close();
console.log(JSON.stringify(lines));
