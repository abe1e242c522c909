/**
 * `deno task bench`: starts a fake upstream, a minimal Deno proxy and gatehouse as separate
 * processes on loopback ports (and, for the JSON passthrough scenarios, Portkey's gateway on Node,
 * installed on first use: `portkey.ts`; skipped with the reason when Node is missing), measures every scenario against each target at concurrency 1 and
 * 32 with `wrk` (an external load generator, `wrk_load.ts`; `--generator=fetch` for the
 * in-process one, also used when wrk is not installed: apt-get install wrk), prints the tables and the PASS/MISS target checks, and writes bench/results/latest.json.
 * Every scenario is first run against every target (the warm-up), so no measurement sees code
 * the JIT has not optimised yet. The targets of a scenario are measured in turns (five slices
 * each), so drift in the machine's load does not land on one target's figures. Around each
 * slice the CPU time of the process serving the target is read, for CPU µs per request, which
 * the report sets next to the throughput ratios (`cpu_report.ts`). The policy-cost
 * table sets gatehouse with no policy against gatehouse with every policy, per round.
 *
 * Its options: `usage.ts`, printed by `deno task bench --help`.
 * @module
 */
import { measureAll } from "./measure.ts";
import { benchPolicies, formatPolicyCosts, policyCosts, rpmWindowBytes } from "./policies.ts";
import { allocationsScenario, profileScenario } from "./profile.ts";
import { compareRevision } from "./compare.ts";
import { instructionsScenario } from "./instructions.ts";
import { gcScenario } from "./gc.ts";
import {
  addedLatencies,
  checks,
  CONCURRENCIES,
  formatReport,
  type Measurement,
  TARGETS,
} from "./report.ts";
import type { Scenario } from "./scenarios.ts";
import { isObserveRun, isScaleRun, isStreamsRun, parseSettings } from "./settings.ts";
import { runStreams } from "./streams/main.ts";
import { runScale } from "./scale/main.ts";
import { runObserve } from "./observe/main.ts";
import { wrkInstalled } from "./scale/wrk.ts";
import { describeMachine, sourceCommit, stolenShare } from "./machine.ts";
import { machineBusy } from "./streams/proc_stats.ts";
import { publish } from "./publish.ts";
import { USAGE } from "./usage.ts";
import { checkOptions } from "./options.ts";
import { cpuRows, formatCpu } from "./cpu_report.ts";

const BENCH_POLICY_FIELDS = "models, rpm, tpm, max_parallel, budget_usd monthly, expires_at";

/** The policy-cost comparison: per round (when there are several) and pooled, printed and for
 * the JSON report, with what the limits' windows hold at the fastest policied rate measured. */
function policySection(scenarios: Scenario[], pooled: Measurement[], rounds: Measurement[][]) {
  const ids = scenarios.map((s) => s.id);
  const costs = [
    ...(rounds.length > 1 ? rounds.flatMap((round, i) => policyCosts(ids, round, i + 1)) : []),
    ...policyCosts(ids, pooled),
  ];
  const label = (id: string) => scenarios.find((s) => s.id === id)?.label ?? id;
  const peak = Math.max(
    0,
    ...pooled.filter((m) => m.target === "policied").map((m) => m.result.throughput),
  );
  const windowNote = `Memory of the limits: at the fastest policied rate measured ` +
    `(${peak.toFixed(0)} req/s, sustained for a minute) the rpm window would hold ` +
    `${Math.ceil(peak * 60)} timestamps in ${(rpmWindowBytes(peak) / 1e6).toFixed(1)} MB and ` +
    `the tpm window as many entries (time and tokens) in ` +
    `${((2 * rpmWindowBytes(peak, Infinity)) / 1e6).toFixed(1)} MB, each for the key and ` +
    `again for the team (the ` +
    `policied load runs a fraction of the time, so they hold less: see GET /v1/usage below); ` +
    `a budget holds only the reservations of the requests in flight.`;
  const text = [
    `Policy cost: gatehouse, key with no policy ("none") vs key and team with every policy ` +
    `("all": ${BENCH_POLICY_FIELDS}) in a gateway that also writes a JSON log line per ` +
    `request; both with metrics on; added p50 over direct at c=${CONCURRENCIES[0]}`,
    formatPolicyCosts(costs, label),
    windowNote,
  ].join("\n");
  return {
    costs,
    text,
    json: {
      policies: benchPolicies(Date.now()),
      costs,
      rpmWindowBytesAtPeak: rpmWindowBytes(peak),
    },
  };
}

async function main(): Promise<number> {
  if (Deno.args.some((arg) => arg === "--help" || arg === "-h")) {
    console.log(USAGE);
    return 0;
  }
  if (Deno.args.includes("--publish")) {
    checkOptions(Deno.args, ["publish"], "deno task bench --publish");
    return await publish();
  }
  if (isScaleRun(Deno.args)) return await runScale(Deno.args);
  if (isObserveRun(Deno.args)) return await runObserve(Deno.args);
  if (isStreamsRun(Deno.args)) return await runStreams(Deno.args);
  const settings = parseSettings(Deno.args);
  if (settings.generator === "wrk" && !(await wrkInstalled())) {
    console.log(
      "wrk is not installed (apt-get install wrk): measuring with the in-process fetch load " +
        "generator instead, which shares the runtime's kind of CPU time and flattens the " +
        "differences between the targets.",
    );
    settings.generator = "fetch";
  }
  if (settings.instructions !== null) {
    return await instructionsScenario(settings.instructions, {
      target: settings.profileTarget,
      concurrency: settings.profileConcurrency,
      requests: settings.requests,
      rounds: settings.rounds,
      compare: settings.compare,
    });
  }
  if (settings.compare !== null) {
    if (settings.generator !== "wrk") {
      console.log(
        "--compare drives its load with wrk, which is not installed: apt-get install wrk",
      );
      return 1;
    }
    return await compareRevision(settings.compare, settings.compareScenario, {
      seconds: Math.max(1, Math.round(settings.seconds)),
      rounds: settings.rounds,
      concurrency: settings.profileConcurrency,
      target: settings.profileTarget,
    });
  }
  // One scenario through gatehouse: its GC trace, its allocations, or its CPU profile.
  const focused = settings.gc ?? settings.allocations ?? settings.profile;
  if (focused !== null) {
    const run = settings.gc
      ? gcScenario
      : settings.allocations
      ? allocationsScenario
      : profileScenario;
    return await run(
      focused,
      settings.seconds,
      settings.profileConcurrency,
      settings.profileTarget,
      settings.generator,
    );
  }
  const runs = settings.scenarios.reduce((n, s) => n + s.targets.length, 0);
  // wrk runs whole seconds: a slice (a fifth of a measurement) takes at least one.
  const measured = settings.generator === "wrk"
    ? 5 * Math.max(1, Math.round(settings.seconds / 5))
    : settings.seconds;
  const estimate = runs * (settings.warmupSeconds +
    settings.rounds * (settings.rewarmSeconds + CONCURRENCIES.length * measured));
  console.log(
    `gatehouse bench: ${settings.scenarios.length} scenarios, ${runs} scenario×target runs, ` +
      `c=${CONCURRENCIES.join(" and c=")}, ${settings.seconds}s each, ${settings.rounds} ` +
      `round(s) (about ${Math.round(estimate)}s); ${navigator.hardwareConcurrency} CPUs; load ` +
      `by ${settings.generator === "wrk" ? "wrk (external)" : "fetch (in process)"}.`,
  );
  const machineBefore = await machineBusy();
  const startedAt = performance.now();
  const { measurements, rounds, failures, notes, log } = await measureAll(settings);
  const stolen = stolenShare(machineBefore, await machineBusy(), performance.now() - startedAt);
  const policies = policySection(settings.scenarios, measurements, rounds);

  const cpu = cpuRows(settings.scenarios, measurements);
  const label = (id: string) => settings.scenarios.find((s) => s.id === id)?.label ?? id;
  console.log(`\n${formatReport(settings.scenarios, measurements)}`);
  console.log(`\n${formatCpu(cpu, label)}`);
  if (policies.costs.length > 0) console.log(`\n${policies.text}`);
  console.log(
    `\nThe virtual machine's host took ${(stolen.share * 100).toFixed(1)}% of the cores during ` +
      `the run (${stolen.seconds.toFixed(1)} core-s of steal time): a figure above a few percent ` +
      "means a noisy neighbour slowed every target, and the ratios are the ones to compare.",
  );
  if (notes.length > 0) console.log(`\nNotes:\n  ${notes.join("\n  ")}`);
  if (log !== "") {
    const lines = log.split("\n");
    console.log(`\ngatehouse wrote ${lines.length} log line(s) to stderr; the first:`);
    for (const line of lines.slice(0, 3)) console.log(`  ${line.slice(0, 300)}`);
  }
  if (failures.length > 0) {
    console.log(
      `\nProblems (a run not measured, or a key not as meant):\n  ${failures.join("\n  ")}`,
    );
  }

  const dir = new URL("./results/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  const file = new URL("latest.json", dir);
  const report = {
    finishedAt: new Date().toISOString(),
    commit: await sourceCommit(),
    machine: await describeMachine(),
    stolen,
    settings: {
      generator: settings.generator,
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      rounds: settings.rounds,
      concurrencies: CONCURRENCIES,
      targets: TARGETS,
    },
    measurements,
    added: addedLatencies(settings.scenarios, measurements),
    checks: checks(settings.scenarios, measurements),
    cpu,
    policies: policies.costs.length > 0 ? policies.json : undefined,
    rounds: settings.rounds > 1 ? rounds : undefined,
    notes,
    failures,
  };
  await Deno.writeTextFile(file, JSON.stringify(report, null, 2) + "\n");
  console.log(`\nwrote ${file.pathname}`);
  return failures.length > 0 ? 1 : 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main());
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
