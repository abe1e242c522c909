/**
 * `deno task bench`: starts a fake upstream, a minimal Deno proxy and gatehouse as separate
 * processes on loopback ports, measures every scenario against each target at concurrency 1 and
 * 32, prints the tables and the PASS/MISS target checks, and writes bench/results/latest.json.
 * Every scenario is first run against every target (the warm-up), so no measurement sees code
 * the JIT has not optimised yet. The targets of a scenario are measured in turns (five slices
 * each), so drift in the machine's load does not land on one target's figures.
 *
 *   deno task bench                       the full run (about two minutes)
 *   deno task bench --seconds=1           shorter measurements
 *   deno task bench --warmup=5            seconds of warm-up per scenario and target (default 2)
 *   deno task bench --only=chat-stream    one scenario (plus the baselines it needs)
 *   deno task bench --profile=chat-stream CPU profile of gatehouse on one scenario (c=32;
 *                                         --concurrency=1 profiles one request at a time)
 * @module
 */
import { type LoadSamples, type LoadSpec, runLoad, sampleLoad, summarizeLoads } from "./load.ts";
import { profileScenario } from "./profile.ts";
import {
  addedLatencies,
  checks,
  CONCURRENCIES,
  formatReport,
  type Measurement,
  TARGETS,
} from "./report.ts";
import { type Scenario, SCENARIOS, type Target } from "./scenarios.ts";
import {
  startTargets,
  type TargetRequest,
  targetRequest,
  type Targets,
  validate,
} from "./targets.ts";

/** Slices per measurement: each target runs this many times, in turn with the others. */
const ROUNDS = 5;

/** A load run without its concurrency and duration. */
type LoadSpecBase = Omit<LoadSpec, "concurrency" | "durationMs">;

/** Run settings. */
interface Settings {
  /** Seconds per measurement. */
  seconds: number;
  /** Seconds of warm-up per scenario and target, all of them before the first measurement. */
  warmupSeconds: number;
  /** Seconds each scenario's loads run again right before its own measurement. */
  rewarmSeconds: number;
  /** Most requests per measurement. */
  maxRequests: number;
  scenarios: Scenario[];
  /** Profile this scenario through gatehouse instead of measuring. */
  profile: Scenario | null;
  /** Concurrency of the profiled load. */
  profileConcurrency: number;
}

function parseSettings(args: string[]): Settings {
  const value = (name: string) =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const seconds = Number(value("seconds") ?? 2.5);
  if (!(seconds > 0)) throw new Error(`--seconds must be a positive number of seconds`);
  const known = SCENARIOS.map((s) => s.id).join(", ");
  const profileId = value("profile");
  const profile = profileId === undefined
    ? null
    : SCENARIOS.find((s) => s.id === profileId) ?? null;
  if (profileId !== undefined && profile === null) {
    throw new Error(`unknown scenario ${profileId}; known: ${known}`);
  }
  const profileConcurrency = Number(value("concurrency") ?? 32);
  if (!Number.isInteger(profileConcurrency) || profileConcurrency < 1) {
    throw new Error(`--concurrency must be a whole number of at least 1`);
  }
  const only = value("only")?.split(",");
  let scenarios = SCENARIOS;
  if (only) {
    const unknown = only.filter((id) => !SCENARIOS.some((s) => s.id === id));
    if (unknown.length > 0) {
      throw new Error(
        `unknown scenario ${unknown.join(", ")}; known: ${known}`,
      );
    }
    const wanted = new Set(only);
    for (const id of only) {
      const baseline = SCENARIOS.find((s) => s.id === id)?.baseline;
      if (baseline) wanted.add(baseline);
    }
    scenarios = SCENARIOS.filter((s) => wanted.has(s.id));
  }
  const warmupSeconds = Number(value("warmup") ?? Math.min(2, seconds));
  if (!(warmupSeconds >= 0)) throw new Error(`--warmup must be a number of seconds, 0 or more`);
  return {
    seconds,
    warmupSeconds,
    rewarmSeconds: Math.min(1, warmupSeconds),
    maxRequests: 200_000,
    scenarios,
    profile,
    profileConcurrency,
  };
}

/** A scenario's targets that answered their first request, each with the load it sends. */
interface ReadyScenario {
  scenario: Scenario;
  ready: { target: Target; request: LoadSpecBase }[];
}

/** Sends each scenario's first request to each of its targets; a target whose answer is wrong is
 * reported and left out. A translated scenario is held against the proxy on its baseline's
 * upstream call, measured in the same turns, not at another time. */
async function prepare(
  targets: Targets,
  settings: Settings,
  failures: string[],
  notes: string[],
): Promise<ReadyScenario[]> {
  const prepared: ReadyScenario[] = [];
  for (const scenario of settings.scenarios) {
    const ready: ReadyScenario["ready"] = [];
    const load = (request: TargetRequest) => ({ ...request, maxRequests: settings.maxRequests });
    for (const target of scenario.targets) {
      const request = targetRequest(targets, scenario, target);
      const { problems, warnings } = await validate(request, scenario);
      if (warnings) notes.push(`${scenario.label} / ${target}: x-gatehouse-warnings ${warnings}`);
      if (problems.length > 0) {
        failures.push(`${scenario.label} / ${target}: ${problems.join("; ")}`);
        console.log(`  ${scenario.id} ${target}: NOT MEASURED — ${problems.join("; ")}`);
        continue;
      }
      ready.push({ target, request: load(request) });
    }
    const baseline = SCENARIOS.find((s) => s.id === scenario.baseline);
    if (baseline && ready.length > 0) {
      const request = targetRequest(targets, baseline, "proxy");
      if ((await validate(request, baseline)).problems.length === 0) {
        ready.unshift({ target: "proxy", request: load(request) });
      }
    }
    prepared.push({ scenario, ready });
  }
  return prepared;
}

/** Runs each of `ready`'s loads for `seconds` at concurrency 8. */
async function warmUp(ready: ReadyScenario["ready"], seconds: number): Promise<void> {
  for (const { request } of ready) {
    await runLoad({ ...request, concurrency: 8, durationMs: seconds * 1000 });
  }
}

/** Measures every (scenario, target) pair: validate and warm up all of them, then measure each
 * scenario at each concurrency. */
async function measureAll(
  settings: Settings,
): Promise<{ measurements: Measurement[]; failures: string[]; notes: string[]; log: string }> {
  const targets = await startTargets();
  const measurements: Measurement[] = [];
  const failures: string[] = [];
  const notes: string[] = [];
  try {
    console.log(
      `upstream ${targets.upstream.url}, proxy ${targets.proxy.url}, ` +
        `gatehouse ${targets.gateway.url}\n`,
    );
    const prepared = await prepare(targets, settings, failures, notes);
    // Every process's code must be hot before the first measurement, whichever scenario comes
    // first: one scenario's warm-up alone left the first measured scenario 0.3–0.5 ms slower at
    // c=1 on every target (the load generator and the fake upstream included) than the same
    // scenario measured later in the run.
    await warmUp(prepared.flatMap(({ ready }) => ready), settings.warmupSeconds);
    for (const { scenario, ready } of prepared) {
      // The scenario's own loads again, right before it is measured (connections, caches).
      await warmUp(ready, settings.rewarmSeconds);
      for (const concurrency of CONCURRENCIES) {
        // The targets take turns in short slices, so a slow spell of this shared machine falls
        // on all of them alike instead of on whichever target ran during it.
        const slices = new Map<Target, LoadSamples[]>(ready.map(({ target }) => [target, []]));
        const sliceMs = (settings.seconds * 1000) / ROUNDS;
        for (let round = 0; round < ROUNDS; round++) {
          for (const { target, request } of ready) {
            const samples = await sampleLoad({ ...request, concurrency, durationMs: sliceMs });
            slices.get(target)!.push(samples);
          }
        }
        for (const { target } of ready) {
          const result = summarizeLoads(slices.get(target)!);
          measurements.push({ scenario: scenario.id, target, concurrency, result });
          console.log(
            `  ${scenario.id.padEnd(22)} ${target.padEnd(9)} c=${String(concurrency).padEnd(3)}` +
              `${result.throughput.toFixed(0).padStart(7)} req/s  ` +
              `p50 ${result.p50.toFixed(3)} ms  p99 ${result.p99.toFixed(3)} ms` +
              (result.errors > 0 ? `  ${result.errors} errors` : ""),
          );
        }
      }
    }
  } finally {
    await targets.stop();
  }
  return { measurements, failures, notes, log: targets.gateway.stderr().trim() };
}

async function main(): Promise<number> {
  const settings = parseSettings(Deno.args);
  if (settings.profile) {
    return await profileScenario(settings.profile, settings.seconds, settings.profileConcurrency);
  }
  const runs = settings.scenarios.reduce((n, s) => n + s.targets.length, 0);
  const estimate = runs *
    (settings.warmupSeconds + settings.rewarmSeconds + CONCURRENCIES.length * settings.seconds);
  console.log(
    `gatehouse bench: ${settings.scenarios.length} scenarios, ${runs} scenario×target runs, ` +
      `c=${CONCURRENCIES.join(" and c=")}, ${settings.seconds}s each (about ` +
      `${Math.round(estimate)}s); ${navigator.hardwareConcurrency} CPUs.`,
  );
  const { measurements, failures, notes, log } = await measureAll(settings);

  console.log(`\n${formatReport(settings.scenarios, measurements)}`);
  if (notes.length > 0) console.log(`\nNotes:\n  ${notes.join("\n  ")}`);
  if (log !== "") {
    const lines = log.split("\n");
    console.log(`\ngatehouse wrote ${lines.length} log line(s) to stderr; the first:`);
    for (const line of lines.slice(0, 3)) console.log(`  ${line.slice(0, 300)}`);
  }
  if (failures.length > 0) {
    console.log(`\nNot measured (the first request failed):\n  ${failures.join("\n  ")}`);
  }

  const dir = new URL("./results/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  const file = new URL("latest.json", dir);
  const report = {
    finishedAt: new Date().toISOString(),
    deno: Deno.version,
    cpus: navigator.hardwareConcurrency,
    settings: {
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      concurrencies: CONCURRENCIES,
      targets: TARGETS,
    },
    measurements,
    added: addedLatencies(settings.scenarios, measurements),
    checks: checks(settings.scenarios, measurements),
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
