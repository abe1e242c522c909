/**
 * One configuration of the scale-out bench: a fresh store (a temp SQLite file, or a fresh
 * Postgres database with Redis for the limits), the real `main.ts` on it, the bench key made
 * through the admin API, then per scenario a checked probe request, a wrk warm-up and the
 * measured wrk run (with Redis's command counts read around it), and the key's `GET /v1/usage`
 * checked after.
 * @module
 */
import { BENCH_KEY_ENV, BENCH_UPSTREAM_KEY, benchCatalog } from "../bench_catalog.ts";
import { rateLimitProblems, usageProblems } from "../policies.ts";
import { requestHeaders, type Scenario, SCENARIOS } from "../scenarios.ts";
import { createBenchKey } from "./admin_api.ts";
import { type BenchDatabase, createBenchDatabase } from "./databases.ts";
import { type GatewayProcess, startGateway } from "./gateway_process.ts";
import {
  type CommandCalls,
  type CommandDelta,
  commandDeltas,
  parseCommandStats,
  perRequest,
  redisInfo,
} from "./redis_stats.ts";
import { SCALE_SCENARIOS, type ScaleConfig, type ScaleSettings } from "./scale_settings.ts";
import { runWrk, type WrkResult, wrkScript } from "./wrk.ts";

/** One measured wrk run of a scenario in a configuration. */
export interface ScaleRun {
  config: ScaleConfig["id"];
  scenario: string;
  wrk: WrkResult;
  /** Redis commands during the measured run, per request completed (Redis configurations):
   * client round trips, commands executed (scripts' included), Redis's µs in the client
   * commands, and each command. */
  redis: { roundTrips: number; executed: number; usec: number; commands: CommandDelta[] } | null;
  /** `/proc/loadavg`'s 1-minute figure before the measured run (other work on the machine). */
  loadBefore: number | null;
}

/** What a configuration gave: its runs, and what was checked or went wrong. */
export interface ConfigOutcome {
  runs: ScaleRun[];
  notes: string[];
  problems: string[];
  /** Why the configuration stopped before its end (its runs so far are kept), or null. */
  error: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the scenario's request a few times (so every worker likely answers one) and returns
 * what is wrong with the answers. */
async function probe(
  url: string,
  scenario: Scenario,
  body: string,
  headers: Record<string, string>,
  policied: boolean,
): Promise<string[]> {
  const problems: string[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${url}${scenario.path}`, { method: "POST", headers, body });
    const text = await response.text();
    if (response.status !== 200) {
      throw new Error(`${scenario.id}: probe answered ${response.status}: ${text.slice(0, 300)}`);
    }
    const missing = scenario.expect.filter((part) => !text.includes(part));
    if (missing.length > 0) problems.push(`${scenario.id}: the answer lacks ${missing.join(", ")}`);
    const target = policied ? "policied" : "gatehouse";
    problems.push(
      ...rateLimitProblems(response.headers, scenario.path, target).map((p) =>
        `${scenario.id}: ${p}`
      ),
    );
  }
  return [...new Set(problems)];
}

/** The 1-minute load average, or null where `/proc/loadavg` is not there (read by `cat`: Deno
 * lets only --allow-all read /proc). */
async function loadAverage(): Promise<number | null> {
  try {
    const { success, stdout } = await new Deno.Command("cat", { args: ["/proc/loadavg"] })
      .output();
    const figure = Number(new TextDecoder().decode(stdout).split(" ")[0]);
    return success && Number.isFinite(figure) ? figure : null;
  } catch {
    return null;
  }
}

async function commandCalls(redisUrl: string): Promise<CommandCalls> {
  return parseCommandStats(await redisInfo(redisUrl, "commandstats"));
}

/** Measures both scenarios on the running gateway with `key`. */
async function measure(
  config: ScaleConfig,
  settings: ScaleSettings,
  gateway: GatewayProcess,
  key: string,
  outcome: ConfigOutcome,
): Promise<void> {
  for (const id of SCALE_SCENARIOS) {
    const scenario = SCENARIOS.find((s) => s.id === id)!;
    const body = JSON.stringify(scenario.body(scenario.model));
    const headers = requestHeaders(scenario, key);
    outcome.problems.push(...await probe(gateway.url, scenario, body, headers, config.policied));
    const run = {
      url: `${gateway.url}${scenario.path}`,
      script: wrkScript(body, headers),
      connections: settings.connections,
      threads: settings.threads,
    };
    if (settings.warmupSeconds > 0) await runWrk({ ...run, seconds: settings.warmupSeconds });
    const loadBefore = await loadAverage();
    const redis = config.store === "postgres";
    const before = redis ? await commandCalls(settings.redisUrl) : null;
    const { output: _output, ...wrk } = await runWrk({ ...run, seconds: settings.seconds });
    let deltas: ScaleRun["redis"] = null;
    if (before !== null) {
      // Releases and ledger writes of the last requests land just after wrk stops.
      await sleep(300);
      const commands = commandDeltas(before, await commandCalls(settings.redisUrl), wrk.requests);
      deltas = { ...perRequest(commands, wrk.requests), commands };
      const evals = commands.filter((c) => c.command.startsWith("eval"));
      if (config.policied && evals.reduce((n, c) => n + c.perRequest, 0) < 1) {
        outcome.problems.push(`${id}: fewer than one EVALSHA a request: limits not in Redis?`);
      }
    }
    outcome.runs.push({ config: config.id, scenario: id, wrk, redis: deltas, loadBefore });
    console.log(
      `  ${config.id} ${id}: ${wrk.rps.toFixed(0)} req/s, p50 ${wrk.p50.toFixed(2)} ms, ` +
        `p99 ${wrk.p99.toFixed(2)} ms, non-2xx ${wrk.non2xx}` +
        (deltas === null ? "" : `, Redis ${deltas.roundTrips.toFixed(2)} round trips and ` +
          `${deltas.executed.toFixed(1)} commands (${deltas.usec.toFixed(0)} µs) a request`) +
        (loadBefore === null ? "" : ` (load ${loadBefore.toFixed(2)} before)`),
    );
  }
}

/** Checks the key's `GET /v1/usage` after the runs. */
async function checkUsage(url: string, key: string, policied: boolean, outcome: ConfigOutcome) {
  const response = await fetch(`${url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (!response.ok) {
    outcome.problems.push(`GET /v1/usage answered ${response.status}: ${text.slice(0, 200)}`);
    return;
  }
  const { problems, summary } = usageProblems(
    JSON.parse(text),
    policied ? "policied" : "gatehouse",
  );
  outcome.problems.push(...problems.map((p) => `GET /v1/usage: ${p}`));
  outcome.notes.push(`GET /v1/usage after the runs: ${summary}`);
}

/** Runs one configuration against the fake upstream at `upstream`. When the gateway cannot be
 * started or a probe is refused, the outcome says so in `error`; the store is removed either
 * way. */
export async function runConfig(
  config: ScaleConfig,
  settings: ScaleSettings,
  upstream: string,
): Promise<ConfigOutcome> {
  const outcome: ConfigOutcome = { runs: [], notes: [], problems: [], error: null };
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_scale_" });
  let database: BenchDatabase | null = null;
  let gateway: GatewayProcess | null = null;
  try {
    const catalog = `${dir}/catalog.json`;
    await Deno.writeTextFile(catalog, JSON.stringify(benchCatalog(upstream), null, 2));
    const env: Record<string, string> = {
      PORT: "0",
      HOST: "127.0.0.1",
      DOCS_PORT: "off",
      GATEHOUSE_QUIET: "1",
      GATEHOUSE_CONFIG: catalog,
      [BENCH_KEY_ENV]: BENCH_UPSTREAM_KEY,
    };
    if (config.store === "sqlite") env.GATEHOUSE_DB = `${dir}/gatehouse.db`;
    else {
      database = await createBenchDatabase(settings.postgresUrl);
      env.DATABASE_URL = database.url;
      env.REDIS_URL = settings.redisUrl;
    }
    const args = config.workers > 1 ? ["--workers", String(config.workers)] : [];
    gateway = await startGateway(args, env);
    const line = /gatehouse listening on .*/.exec(gateway.output())?.[0];
    if (line !== undefined) outcome.notes.push(line);
    if (gateway.adminKey === null) throw new Error("main.ts printed no admin key on its start");
    const key = await createBenchKey(gateway.url, gateway.adminKey, config.policied);
    // Another worker sees a key made through this one within a second.
    if (config.workers > 1) await sleep(1_100);
    await measure(config, settings, gateway, key, outcome);
    await checkUsage(gateway.url, key, config.policied, outcome);
  } catch (error) {
    outcome.error = error instanceof Error ? error.message : String(error);
  } finally {
    if (gateway !== null) {
      const code = await gateway.stop();
      if (code !== 0) outcome.problems.push(`main.ts exited with ${code} after SIGTERM`);
      const logged = gateway.output().split("\n[stderr]\n")[1];
      if (logged !== undefined && logged.trim() !== "") {
        outcome.notes.push(`main.ts stderr (first lines): ${logged.trim().slice(0, 600)}`);
      }
    }
    await database?.drop().catch((error) => outcome.problems.push(`drop: ${error}`));
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return outcome;
}
