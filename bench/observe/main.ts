/**
 * `deno task bench --only=observe` (issue #18): what the observers cost on the hot path. The real
 * `main.ts` runs as three processes on loopback — metrics off and no request log; metrics on (the
 * default); metrics on with a JSON log line per request — and `wrk` (an external load generator,
 * never one inside the gateway's runtime) measures the chat passthrough scenarios on each at
 * c=1 (added p50) and c=32 (throughput). The configurations are measured in turns, round after
 * round, each round on fresh processes, so neither drift in the machine's load nor one
 * process's luck lands on one of them. After the runs the
 * metrics configurations are scraped, and their request counts checked against what was sent.
 * Prints the table and writes bench/results/observe.json.
 *
 *   deno task bench --only=observe                      everything (about six minutes)
 *   deno task bench --only=observe --seconds=5 --warmup=1 --rounds=1
 *   deno task bench --only=observe --configs=off,metrics
 * @module
 */
import { BENCH_KEY_ENV, BENCH_UPSTREAM_KEY, benchCatalog } from "../bench_catalog.ts";
import { startChild } from "../processes.ts";
import { requestHeaders, type Scenario, SCENARIOS } from "../scenarios.ts";
import { createBenchKey } from "../scale/admin_api.ts";
import { type GatewayProcess, startGateway } from "../scale/gateway_process.ts";
import { runWrk, wrkInstalled, wrkScript } from "../scale/wrk.ts";
import {
  OBSERVE_CONCURRENCIES,
  OBSERVE_SCENARIOS,
  type ObserveConfig,
  type ObserveSettings,
  parseObserveSettings,
} from "./observe_settings.ts";
import { formatObserveRuns, type ObserveRun, requestsCounted } from "./observe_report.ts";

/** One configuration's running gateway. */
interface Running {
  config: ObserveConfig;
  gateway: GatewayProcess;
  adminKey: string;
  key: string;
  dir: string;
  /** Requests sent to it (probes, warm-ups and measured runs), as wrk and the probes counted. */
  sent: number;
  /** Requests wrk may have left out of its counts: each run ends with up to one request per
   * connection in flight, answered (and counted by the gateway) after wrk stopped counting. */
  uncounted: number;
}

async function start(config: ObserveConfig, upstream: string): Promise<Running> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_observe_" });
  const catalog = `${dir}/catalog.json`;
  await Deno.writeTextFile(catalog, JSON.stringify(benchCatalog(upstream), null, 2));
  const gateway = await startGateway(
    [],
    {
      PORT: "0",
      HOST: "127.0.0.1",
      DOCS_PORT: "off",
      GATEHOUSE_CONFIG: catalog,
      GATEHOUSE_DB: `${dir}/gatehouse.db`,
      [BENCH_KEY_ENV]: BENCH_UPSTREAM_KEY,
      ...config.env,
    },
    60_000,
    { discardStderr: config.logs },
  );
  if (gateway.adminKey === null) throw new Error(`${config.id}: main.ts printed no admin key`);
  const key = await createBenchKey(gateway.url, gateway.adminKey, false);
  return { config, gateway, adminKey: gateway.adminKey, key, dir, sent: 0, uncounted: 0 };
}

function request(scenario: Scenario, key: string) {
  return {
    body: JSON.stringify(scenario.body(scenario.model)),
    headers: requestHeaders(scenario, key),
  };
}

async function probe(running: Running, scenario: Scenario): Promise<void> {
  const { body, headers } = request(scenario, running.key);
  const response = await fetch(`${running.gateway.url}${scenario.path}`, {
    method: "POST",
    headers,
    body,
  });
  const text = await response.text();
  running.sent++;
  if (response.status !== 200) {
    throw new Error(
      `${running.config.id} ${scenario.id}: probe answered ${response.status}: ${text}`,
    );
  }
  const missing = scenario.expect.filter((part) => !text.includes(part));
  if (missing.length > 0) throw new Error(`${scenario.id}: the answer lacks ${missing.join(", ")}`);
}

async function wrkOn(running: Running, scenario: Scenario, connections: number, seconds: number) {
  const { body, headers } = request(scenario, running.key);
  const result = await runWrk({
    url: `${running.gateway.url}${scenario.path}`,
    script: wrkScript(body, headers),
    connections,
    threads: Math.min(2, connections),
    seconds,
  });
  running.sent += result.requests;
  running.uncounted += connections;
  return result;
}

/** Scrapes `/metrics` of a configuration with metrics on; the exposition text. */
async function scrape(running: Running): Promise<string> {
  const response = await fetch(`${running.gateway.url}/metrics`, {
    headers: { authorization: `Bearer ${running.adminKey}` },
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`GET /metrics answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return text;
}

/** One round: the configurations' processes started, probed and warmed, each scenario measured
 * at each concurrency on each in turn, their request counts checked, then stopped. Returns the
 * problems seen. */
async function runRound(
  round: number,
  configs: readonly ObserveConfig[],
  upstream: string,
  settings: ObserveSettings,
  runs: ObserveRun[],
): Promise<string[]> {
  const scenarios = OBSERVE_SCENARIOS.map((id) => SCENARIOS.find((s) => s.id === id)!);
  const running: Running[] = [];
  const problems: string[] = [];
  try {
    for (const config of configs) running.push(await start(config, upstream));
    for (const r of running) for (const scenario of scenarios) await probe(r, scenario);
    if (settings.warmupSeconds > 0) {
      for (const r of running) {
        for (const scenario of scenarios) await wrkOn(r, scenario, 32, settings.warmupSeconds);
      }
    }
    for (const scenario of scenarios) {
      for (const connections of OBSERVE_CONCURRENCIES) {
        for (const r of running) {
          const { output: _output, ...wrk } = await wrkOn(
            r,
            scenario,
            connections,
            settings.seconds,
          );
          runs.push({ round, config: r.config.id, scenario: scenario.id, connections, wrk });
          console.log(
            `  round ${round} ${scenario.id} c=${connections} ${r.config.id}: ` +
              `${wrk.rps.toFixed(0)} req/s, p50 ${wrk.p50.toFixed(3)} ms, ` +
              `p99 ${wrk.p99.toFixed(3)} ms, non-2xx ${wrk.non2xx}`,
          );
          if (wrk.non2xx > 0) problems.push(`${r.config.id} ${scenario.id}: ${wrk.non2xx} non-2xx`);
        }
      }
    }
    // The last requests settle just after wrk stops.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const r of running.filter((r) => r.config.id !== "off")) {
      const counted = requestsCounted(await scrape(r));
      const note =
        `round ${round} ${r.config.id}: /metrics counts ${counted} requests; ${r.sent} ` +
        `were counted by wrk and the probes, which leave out up to ${r.uncounted} still in ` +
        "flight as a run ended";
      console.log(`  ${note}`);
      if (counted < r.sent || counted > r.sent + r.uncounted) problems.push(note);
    }
  } finally {
    for (const r of running) {
      const code = await r.gateway.stop();
      if (code !== 0) problems.push(`${r.config.id}: main.ts exited with ${code} after SIGTERM`);
      await Deno.remove(r.dir, { recursive: true }).catch(() => {});
    }
  }
  return problems;
}

/** Runs the observability-cost bench with the bench's arguments; returns the exit code. */
export async function runObserve(args: readonly string[]): Promise<number> {
  if (!(await wrkInstalled())) {
    console.error("the observe bench needs wrk, which is not installed: apt-get install wrk");
    return 1;
  }
  const settings = parseObserveSettings(args);
  console.log(
    `gatehouse observe bench: ${settings.configs.map((c) => c.id).join(", ")}; ` +
      `${OBSERVE_SCENARIOS.join(" and ")} at c=${
        OBSERVE_CONCURRENCIES.join(" and c=")
      } with wrk, ` +
      `${settings.rounds} round(s), each on fresh processes, of ${settings.seconds}s runs after ` +
      `${settings.warmupSeconds}s warm-ups; ${navigator.hardwareConcurrency} CPUs shared by wrk, the fake upstream and the ` +
      `gateways.`,
  );
  const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
  const runs: ObserveRun[] = [];
  const problems: string[] = [];
  try {
    // Fresh gateway processes every round: a process keeps its own luck for its lifetime (how
    // V8 compiled its hot paths; seen as ±15% at c=32 between two processes of one build), so
    // the medians are over processes, not only over runs.
    for (let round = 1; round <= settings.rounds; round++) {
      // Each round starts with another configuration: none always runs first or last.
      const order = settings.configs.map((_, i) =>
        settings.configs[(i + round - 1) % settings.configs.length]!
      );
      problems.push(...await runRound(round, order, upstream.url, settings, runs));
    }
  } finally {
    await upstream.stop();
  }
  console.log(`\n${formatObserveRuns(settings.configs, runs)}`);
  if (problems.length > 0) console.log(`\nProblems:\n  ${problems.join("\n  ")}`);
  const dir = new URL("../results/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  const file = new URL("observe.json", dir);
  await Deno.writeTextFile(
    file,
    JSON.stringify(
      {
        finishedAt: new Date().toISOString(),
        deno: Deno.version,
        cpus: navigator.hardwareConcurrency,
        settings,
        runs,
        problems,
      },
      null,
      2,
    ) + "\n",
  );
  console.log(`\nwrote ${file.pathname}`);
  return problems.length > 0 ? 1 : 0;
}
