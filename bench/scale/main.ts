/**
 * `deno task bench --only=scale` (issue #17): the real `main.ts`, started as its own process,
 * measured by an external load generator (`wrk`, never one inside the gateway's runtime) at
 * concurrency 32 on the chat passthrough scenarios, in four configurations (`scale_settings.ts`):
 * 1 and 2 workers on SQLite with an unpolicied key, 1 and 2 workers on Postgres + Redis with a
 * key under every policy. For the Redis ones it counts Redis commands per request; then it
 * measures the ledger rows per second each store sustains with its batching. Prints the tables
 * and writes bench/results/scale.json.
 *
 *   deno task bench --only=scale                  everything (about two and a half minutes)
 *   deno task bench --only=scale --configs=a,c    some configurations
 *   deno task bench --only=scale --seconds=5 --warmup=1 --ledger-rows=0
 *   deno task bench --only=scale --postgres=URL --redis=URL
 * @module
 */
import { startChild } from "../processes.ts";
import { type LedgerOutcome, postgresLedgerRate, sqliteLedgerRate } from "./ledger_stores.ts";
import { type ConfigOutcome, runConfig, type ScaleRun } from "./run_config.ts";
import { formatLedger, formatRedis, formatRuns } from "./scale_report.ts";
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
  const contention = `${cpus} CPUs: the fake upstream, wrk (${settings.threads} threads) and ` +
    `the gateway (its workers) run on the same machine and compete for them, so these figures ` +
    `are lower bounds, and a second worker can add no more than the cores left over.`;
  console.log(
    `gatehouse scale bench: configurations ${settings.configs.map((c) => c.id).join(", ")}; ` +
      `${SCALE_SCENARIOS.join(" and ")} at c=${settings.connections} with wrk, ` +
      `${settings.warmupSeconds}s warm-up + ${settings.seconds}s each.\n${contention}`,
  );
  const outcomes: Array<ConfigOutcome & { config: string }> = [];
  const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
  try {
    for (const config of settings.configs) {
      console.log(`\n${config.id}. ${config.label}`);
      const outcome = await runConfig(config, settings, upstream.url);
      if (outcome.error !== null) console.log(`  not measured: ${outcome.error.slice(0, 2000)}`);
      outcomes.push({ config: config.id, ...outcome });
    }
  } finally {
    await upstream.stop();
  }
  const ledger: LedgerOutcome[] = [];
  if (settings.ledgerRows > 0) {
    console.log(`\nledger: ${settings.ledgerRows} rows through each store`);
    ledger.push(await sqliteLedgerRate(settings.ledgerRows));
    ledger.push(await postgresLedgerRate(settings.ledgerRows, settings.postgresUrl));
  }

  const runs: ScaleRun[] = outcomes.flatMap((o) => o.runs);
  console.log(`\n${formatRuns(settings.configs, runs)}`);
  console.log(
    `\nRedis per request (INFO commandstats read around each measured run). Round trips are ` +
      `the commands only clients send (EVALSHA, EVAL, PUBLISH, …); Redis also counts each ` +
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
    ledger,
    notes: [contention, ...notes],
    problems,
  };
  await Deno.writeTextFile(file, JSON.stringify(report, null, 2) + "\n");
  console.log(`\nwrote ${file.pathname}`);
  return problems.length > 0 ? 1 : 0;
}
