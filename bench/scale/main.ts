/**
 * `deno task bench --only=scale` (issues #17 and #19): the real `main.ts`, started as its own
 * process, measured by an external load generator (`wrk`, never one inside the gateway's
 * runtime) at concurrency 32 on the chat passthrough scenarios, in four configurations
 * (`scale_settings.ts`): 1 and 2 workers on SQLite with an unpolicied key, 1 and 2 workers on
 * Postgres + Redis with a key under every policy. Each scenario is measured in turns with the
 * fake upstream directly and the minimal proxy (`turns.ts`, five slices each), so every
 * configuration has its ratio to the proxy from the same minutes, and the CPU time per request
 * of each process (the gateway's with all its worker threads), from which the per-core cost and
 * the meaning of 2 workers against 1 on this box are printed (`scale_checks.ts`), with the
 * check against the proxy. For the Redis ones it counts Redis commands per request; then it
 * measures the ledger rows per second each store sustains with its batching. Prints the tables
 * and writes bench/results/scale.json.
 *
 *   deno task bench --only=scale                  everything (about six minutes)
 *   deno task bench --only=scale --configs=a,c    some configurations
 *   deno task bench --only=scale --seconds=5 --warmup=1 --ledger-rows=0
 *   deno task bench --only=scale --postgres=URL --redis=URL
 *   deno task bench --only=scale --configs=c --cpu-profile=/tmp/scale   where the gateway's CPU
 *                                                 went: /tmp/scale-c.cpuprofile, hot spots printed
 * @module
 */
import { type ChildServer, startChild } from "../processes.ts";
import { type LedgerOutcome, postgresLedgerRate, sqliteLedgerRate } from "./ledger_stores.ts";
import { type ConfigOutcome, runConfig, type ScaleRun } from "./run_config.ts";
import { formatLedger, formatRedis, formatRuns, formatTurns } from "./scale_report.ts";
import { formatChecks, formatWorkers, scaleChecks, workerComparisons } from "./scale_checks.ts";
import { parseScaleSettings, SCALE_SCENARIOS } from "./scale_settings.ts";
import { wrkInstalled } from "./wrk.ts";

/** Runs the scale-out bench with the bench's arguments; returns the exit code. */
export async function runScale(args: readonly string[]): Promise<number> {
  if (!(await wrkInstalled())) {
    console.error("the scale bench needs wrk, which is not installed: apt-get install wrk");
    return 1;
  }
  const settings = parseScaleSettings(args);
  const cpus = navigator.hardwareConcurrency;
  const contention = `${cpus} CPUs: the fake upstream, the minimal proxy, wrk ` +
    `(${settings.threads} threads) and the gateway (its workers) run on the same machine and ` +
    `compete for them, so these throughputs are lower bounds, and a second worker can add no ` +
    `more than the cores left over; the CPU µs per request does not depend on that split.`;
  const measured = settings.slices * settings.sliceSeconds;
  console.log(
    `gatehouse scale bench: configurations ${settings.configs.map((c) => c.id).join(", ")}; ` +
      `${SCALE_SCENARIOS.join(" and ")} at c=${settings.connections} with wrk; per scenario ` +
      `${settings.warmupSeconds}s warm-up, then the gateway, the minimal proxy and direct ` +
      `${measured}s each, in turns (${settings.slices} slices of ${settings.sliceSeconds}s).\n` +
      contention,
  );
  const outcomes: Array<ConfigOutcome & { config: string }> = [];
  const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
  let proxy: ChildServer | null = null;
  try {
    proxy = await startChild("minimal proxy", "bench/minimal_proxy.ts", [upstream.url]);
    for (const config of settings.configs) {
      console.log(`\n${config.id}. ${config.label}`);
      const outcome = await runConfig(config, settings, { upstream, proxy });
      if (outcome.error !== null) console.log(`  not measured: ${outcome.error.slice(0, 2000)}`);
      outcomes.push({ config: config.id, ...outcome });
    }
  } finally {
    await proxy?.stop();
    await upstream.stop();
  }
  const ledger: LedgerOutcome[] = [];
  if (settings.ledgerRows > 0) {
    console.log(`\nledger: ${settings.ledgerRows} rows through each store`);
    ledger.push(await sqliteLedgerRate(settings.ledgerRows));
    ledger.push(await postgresLedgerRate(settings.ledgerRows, settings.postgresUrl));
  }

  const runs: ScaleRun[] = outcomes.flatMap((o) => o.runs);
  const checks = scaleChecks(settings.configs, runs);
  const workers = workerComparisons(settings.configs, runs);
  console.log(`\n${formatRuns(settings.configs, runs)}`);
  console.log(
    `\nAgainst the minimal proxy and direct, measured in the same turns. CPU µs/req: CPU time ` +
      `of the serving process (the gateway's with every worker thread) per request; CPU share: ` +
      `the proxy's µs over the target's (its throughput share with a core to itself); per core: ` +
      `1e6 / µs; cores: CPU time over wall time (the process; and the fake upstream, which ` +
      `answers every target):\n${formatTurns(settings.configs, runs)}`,
  );
  console.log(
    `\nWorkers: 2 against 1 on the same store\n${formatWorkers(workers, cpus, settings.threads)}`,
  );
  console.log(`\nChecks\n${formatChecks(checks)}`);
  console.log(
    `\nRedis per request (INFO commandstats read around each of the gateway's measured ` +
      `slices, summed). Round trips are the commands only clients send (EVALSHA, EVAL, ` +
      `PUBLISH, …); Redis also counts each ` +
      `command a script runs, listed below as executed work. The renewals' pipelined ` +
      `ZADD/PEXPIRE (one round trip a heartbeat) fall among those. The bench's own INFO is left ` +
      `out; any other client of this Redis during the run would add to the figures:\n` +
      formatRedis(runs),
  );
  if (ledger.length > 0) {
    console.log(`\nLedger rows per second (batched writes):\n${formatLedger(ledger)}`);
  }
  const notes = outcomes.flatMap((o) => o.notes.map((n) => `${o.config}: ${n}`));
  const problems = outcomes.flatMap((o) => [
    ...o.problems.map((p) => `${o.config}: ${p}`),
    ...(o.error === null ? [] : [`${o.config}: not measured: ${o.error.split("\n")[0]}`]),
  ]);
  problems.push(
    ...runs.filter((r) => r.wrk.non2xx > 0).map((r) =>
      `${r.config} ${r.scenario}: ${r.wrk.non2xx} non-2xx responses`
    ),
    ...ledger.flatMap((l) => "error" in l ? [`ledger ${l.store}: ${l.error.split("\n")[0]}`] : []),
  );
  console.log(`\nNotes:\n  ${[contention, ...notes].join("\n  ")}`);
  if (problems.length > 0) console.log(`\nProblems:\n  ${problems.join("\n  ")}`);

  const dir = new URL("../results/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  const file = new URL("scale.json", dir);
  const report = {
    finishedAt: new Date().toISOString(),
    deno: Deno.version,
    cpus,
    settings,
    runs,
    checks,
    workers,
    ledger,
    notes: [contention, ...notes],
    problems,
  };
  await Deno.writeTextFile(file, JSON.stringify(report, null, 2) + "\n");
  console.log(`\nwrote ${file.pathname}`);
  return problems.length > 0 ? 1 : 0;
}
