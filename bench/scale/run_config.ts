/**
 * One configuration of the scale-out bench: a fresh store (a temp SQLite file, or a fresh
 * Postgres database with Redis for the limits), the real `main.ts` on it, the bench key made
 * through the admin API, then per scenario a checked probe request on each target, wrk
 * warm-ups, and the measured run: the gateway, the minimal proxy and the fake upstream directly
 * taking turns in wrk slices (`turns.ts`: CPU time per request of each one's process; Redis's
 * command counts read around the gateway's slices); the key's `GET /v1/usage` checked after.
 * @module
 */
import { BENCH_KEY_ENV, BENCH_UPSTREAM_KEY, benchCatalog } from "../bench_catalog.ts";
import { writeProfile } from "../cpu_profile.ts";
import { usageProblems } from "../policies.ts";
import { type Inspector, openInspector } from "../streams/inspector.ts";
import { requestHeaders, SCENARIOS } from "../scenarios.ts";
import { createBenchKey } from "./admin_api.ts";
import { type BenchDatabase, createBenchDatabase } from "./databases.ts";
import { type GatewayProcess, startGateway } from "./gateway_process.ts";
import { type Baselines, baselineTargets, loadAverage, probeGateway } from "./probes.ts";
import {
  addCalls,
  type CommandCalls,
  type CommandDelta,
  commandDeltas,
  parseCommandStats,
  perRequest,
  redisInfo,
} from "./redis_stats.ts";
import { SCALE_SCENARIOS, type ScaleConfig, type ScaleSettings } from "./scale_settings.ts";
import { measureInTurns, type TargetRun, type TurnTarget } from "./turns.ts";
import { runWrk, type WrkResult, wrkScript } from "./wrk.ts";

/** One measured scenario in a configuration: the gateway's slices pooled, and direct and the
 * proxy measured in the same turns. */
export interface ScaleRun {
  config: ScaleConfig["id"];
  scenario: string;
  /** The gateway's wrk figures, its slices pooled. */
  wrk: WrkResult;
  /** The gateway process's CPU time (every worker thread) and the cores it kept busy. */
  cpu: TargetRun["cpu"];
  /** Cores the fake upstream kept busy during the gateway's slices. */
  upstreamCores: number;
  /** Straight to the fake upstream, in the same turns. */
  direct: TargetRun;
  /** Through the minimal proxy, in the same turns. */
  proxy: TargetRun;
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

async function commandCalls(redisUrl: string): Promise<CommandCalls> {
  return parseCommandStats(await redisInfo(redisUrl, "commandstats"));
}

/** Measures both scenarios on the running gateway with `key`, each in turns with direct and the
 * proxy. */
async function measure(
  config: ScaleConfig,
  settings: ScaleSettings,
  baselines: Baselines,
  gateway: GatewayProcess,
  key: string,
  outcome: ConfigOutcome,
): Promise<void> {
  for (const id of SCALE_SCENARIOS) {
    const scenario = SCENARIOS.find((s) => s.id === id)!;
    const body = JSON.stringify(scenario.body(scenario.model));
    const headers = requestHeaders(scenario, key);
    outcome.problems.push(
      ...await probeGateway(gateway.url, scenario, body, headers, config.policied),
    );
    const redis = config.redis;
    const summed: CommandCalls = new Map();
    const gatewayTarget: TurnTarget = {
      name: "gateway",
      url: `${gateway.url}${scenario.path}`,
      script: wrkScript(body, headers),
      pid: gateway.pid,
      // Only the gateway's slices are counted: heartbeats while the others run are left out.
      around: redis
        ? async (slice) => {
          const before = await commandCalls(settings.redisUrl);
          await slice();
          addCalls(summed, before, await commandCalls(settings.redisUrl));
        }
        : undefined,
    };
    const targets = [...await baselineTargets(scenario, baselines), gatewayTarget];
    const wrk = { connections: settings.connections, threads: settings.threads };
    for (const target of targets) {
      // The gateway is fresh; direct and the proxy were warmed by earlier runs (1 s each).
      const seconds = target.name === "gateway"
        ? settings.warmupSeconds
        : Math.min(1, settings.warmupSeconds);
      if (seconds > 0) await runWrk({ ...wrk, url: target.url, script: target.script, seconds });
    }
    const loadBefore = await loadAverage();
    const runs = await measureInTurns(targets, {
      ...wrk,
      slices: settings.slices,
      sliceSeconds: settings.sliceSeconds,
      upstreamPid: baselines.upstream.pid,
      // Releases and ledger writes of the last requests land just after wrk stops.
      settleMs: 300,
    });
    const { wrk: result, cpu, upstreamCores } = runs.get("gateway")!;
    let deltas: ScaleRun["redis"] = null;
    if (redis) {
      const commands = commandDeltas(new Map(), summed, result.requests);
      deltas = { ...perRequest(commands, result.requests), commands };
      const evals = commands.filter((c) => c.command.startsWith("eval"));
      // Admissions and releases of one turn of the event loop share one script call
      // (governance/shared/tick_batch.ts), so a request makes well under one EVALSHA: only
      // none at all says the limits were not counted in Redis.
      if (config.policied && evals.reduce((n, c) => n + c.calls, 0) === 0) {
        outcome.problems.push(`${id}: no EVALSHA during the run: limits not in Redis?`);
      }
    }
    const direct = runs.get("direct")!;
    const proxy = runs.get("proxy")!;
    outcome.runs.push({
      config: config.id,
      scenario: id,
      wrk: result,
      cpu,
      upstreamCores,
      direct,
      proxy,
      redis: deltas,
      loadBefore,
    });
    console.log(
      `  ${config.id} ${id}: ${result.rps.toFixed(0)} req/s ` +
        `(${(result.rps / proxy.wrk.rps).toFixed(2)} of the proxy's ${proxy.wrk.rps.toFixed(0)}, ` +
        `direct ${direct.wrk.rps.toFixed(0)}), p50 ${result.p50.toFixed(2)} ms, ` +
        `p99 ${result.p99.toFixed(2)} ms, non-2xx ${result.non2xx}, ` +
        `CPU ${cpu.usPerRequest.toFixed(1)} µs/req (proxy ${proxy.cpu.usPerRequest.toFixed(1)})` +
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

/** Runs one configuration against the fake upstream of `baselines`, held against it and the
 * proxy. When the gateway cannot be started or a probe is refused, the outcome says so in
 * `error`; the store is removed either way. */
export async function runConfig(
  config: ScaleConfig,
  settings: ScaleSettings,
  baselines: Baselines,
): Promise<ConfigOutcome> {
  const upstream = baselines.upstream.url;
  const outcome: ConfigOutcome = { runs: [], notes: [], problems: [], error: null };
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_scale_" });
  let database: BenchDatabase | null = null;
  let gateway: GatewayProcess | null = null;
  let inspector: Inspector | null = null;
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
      if (config.redis) env.REDIS_URL = settings.redisUrl;
    }
    const args = config.workers > 1 ? ["--workers", String(config.workers)] : [];
    const runtimeFlags = settings.cpuProfile === null ? [] : ["--inspect=127.0.0.1:0"];
    gateway = await startGateway(args, env, undefined, { runtimeFlags });
    const line = /gatehouse listening on .*/.exec(gateway.output())?.[0];
    if (line !== undefined) outcome.notes.push(line);
    if (gateway.adminKey === null) throw new Error("main.ts printed no admin key on its start");
    const key = await createBenchKey(gateway.url, gateway.adminKey, config.policied);
    // Another worker sees a key made through this one within a second.
    if (config.workers > 1) await sleep(1_100);
    if (settings.cpuProfile !== null) {
      const address = /Debugger listening on (ws:\/\/\S+)/.exec(gateway.output())?.[1];
      if (address === undefined) throw new Error("main.ts printed no inspector address");
      inspector = await openInspector(address);
      await inspector.startProfile(200);
    }
    await measure(config, settings, baselines, gateway, key, outcome);
    if (inspector !== null) {
      await writeProfile(
        await inspector.stopProfile(),
        `${settings.cpuProfile}-${config.id}.cpuprofile`,
      );
    }
    await checkUsage(gateway.url, key, config.policied, outcome);
  } catch (error) {
    outcome.error = error instanceof Error ? error.message : String(error);
  } finally {
    inspector?.close();
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
