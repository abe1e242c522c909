/**
 * The measuring run: start the targets, check each scenario's first request on each target,
 * warm everything up, then measure each scenario at each concurrency, the targets taking turns
 * in short slices, once per round; around each slice the CPU time of the process serving the
 * target is read (`cpu_time.ts`), for CPU µs per request. Afterwards the gateway's own account of the policied key
 * (`GET /v1/usage`) is checked, so the `policied` figures are known to have gone through every
 * limit.
 * @module
 */
import { type LoadSamples, type LoadSpec, sampleLoad, summarizeLoads } from "./load.ts";
import { wrkSampleLoad } from "./wrk_load.ts";
import { cpuUsPerRequest, withCpuTime } from "./cpu_time.ts";
import { rateLimitProblems, usageProblems } from "./policies.ts";
import { CONCURRENCIES, type Measurement } from "./report.ts";
import { type Scenario, SCENARIOS, type Target } from "./scenarios.ts";
import type { Settings } from "./settings.ts";
import {
  serverOf,
  startTargets,
  type TargetRequest,
  targetRequest,
  type Targets,
  usageOf,
  validate,
} from "./targets.ts";

/** Slices per measurement: each target runs this many times, in turn with the others. */
const SLICES = 5;

/** A load run without its concurrency and duration. */
type LoadSpecBase = Omit<LoadSpec, "concurrency" | "durationMs">;

/** A scenario's targets that answered their first request, each with the load it sends and the
 * process that serves it (whose CPU time is measured). */
interface ReadyScenario {
  scenario: Scenario;
  ready: { target: Target; request: LoadSpecBase; pid: number }[];
}

/** A slice's throughput, req/s. */
function sliceThroughput(slice: LoadSamples): number {
  return (slice.requests ?? slice.latencies.length) / (slice.elapsedMs / 1000);
}

/** A measurement with the slices it summarizes and their summed CPU time. */
type SlicedMeasurement = Measurement & { slices: LoadSamples[]; cpuMs: number };

/** What a run measured and noticed. */
export interface MeasuredRun {
  /** Every round's slices pooled, one per (scenario, target, concurrency). */
  measurements: Measurement[];
  /** The same, per round (`round` set). */
  rounds: Measurement[][];
  /** Runs that were not measured, and why. */
  failures: string[];
  notes: string[];
  /** What gatehouse wrote to stderr. */
  log: string;
}

/** Sends each scenario's first request to each of its targets; a target whose answer is wrong,
 * or whose rate-limit headers say its key is not the one meant, is reported and left out. A
 * translated scenario is held against the proxy on its baseline's upstream call, measured in the
 * same turns, not at another time. */
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
      const server = serverOf(targets, target);
      if (request === null || server === null) {
        const why = "skipped" in targets.portkey ? targets.portkey.skipped : "not running";
        const note = `${scenario.label} / ${target}: not measured: ${why}`;
        if (!notes.includes(note)) notes.push(note);
        continue;
      }
      const { problems, warnings, headers } = await validate(request, scenario);
      if (warnings) notes.push(`${scenario.label} / ${target}: x-gatehouse-warnings ${warnings}`);
      if (target === "gatehouse" || target === "policied") {
        problems.push(...rateLimitProblems(headers, scenario.path, target));
      }
      if (problems.length > 0) {
        failures.push(`${scenario.label} / ${target}: ${problems.join("; ")}`);
        console.log(`  ${scenario.id} ${target}: NOT MEASURED — ${problems.join("; ")}`);
        continue;
      }
      ready.push({ target, request: load(request), pid: server.pid });
    }
    const baseline = SCENARIOS.find((s) => s.id === scenario.baseline);
    if (baseline && ready.length > 0) {
      const request = targetRequest(targets, baseline, "proxy");
      if (request !== null && (await validate(request, baseline)).problems.length === 0) {
        ready.unshift({ target: "proxy", request: load(request), pid: targets.proxy.pid });
      }
    }
    prepared.push({ scenario, ready });
  }
  return prepared;
}

/** The settings' load generator. */
function samplerOf(settings: Settings): (spec: LoadSpec) => Promise<LoadSamples> {
  return settings.generator === "wrk" ? wrkSampleLoad : sampleLoad;
}

/** Runs each of `ready`'s loads for `seconds` at concurrency 8. */
async function warmUp(
  settings: Settings,
  ready: ReadyScenario["ready"],
  seconds: number,
): Promise<void> {
  if (seconds <= 0) return;
  for (const { request } of ready) {
    await samplerOf(settings)({ ...request, concurrency: 8, durationMs: seconds * 1000 });
  }
}

/** Checks both gatehouse keys' `GET /v1/usage` after the run (see {@link usageProblems}). */
async function checkUsage(
  targets: Targets,
  prepared: ReadyScenario[],
  failures: string[],
  notes: string[],
): Promise<void> {
  const measured = new Set(prepared.flatMap(({ ready }) => ready.map((r) => r.target)));
  for (const target of ["gatehouse", "policied"] as const) {
    if (!measured.has(target)) continue;
    const { problems, summary } = usageProblems(await usageOf(targets, target), target);
    if (problems.length > 0) failures.push(`GET /v1/usage, ${target} key: ${problems.join("; ")}`);
    else notes.push(`GET /v1/usage after the run, ${target} key: ${summary}`);
  }
}

/** Measures every (scenario, target) pair: validate and warm up all of them, then measure each
 * scenario at each concurrency, `settings.rounds` times over. */
export async function measureAll(settings: Settings): Promise<MeasuredRun> {
  const targets = await startTargets(
    settings.scenarios.some((scenario) => scenario.targets.includes("portkey")),
  );
  const slices = new Map<string, LoadSamples[]>();
  const cpu = new Map<string, number>();
  const id = (m: Measurement) => `${m.scenario} ${m.target} ${m.concurrency}`;
  const rounds: Measurement[][] = [];
  const failures: string[] = [];
  const notes: string[] = [];
  try {
    console.log(
      `upstream ${targets.upstream.url}, proxy ${targets.proxy.url}, ` +
        `gatehouse ${targets.gateway.url}, gatehouse with everything on ` +
        `${targets.policiedGateway.url}, ` +
        ("skipped" in targets.portkey
          ? `Portkey not running: ${targets.portkey.skipped}`
          : `${targets.portkey.name} ${targets.portkey.url}`) +
        "\n",
    );
    const prepared = await prepare(targets, settings, failures, notes);
    // Every process's code must be hot before the first measurement, whichever scenario comes
    // first: one scenario's warm-up alone left the first measured scenario 0.3–0.5 ms slower at
    // c=1 on every target (the load generator and the fake upstream included) than the same
    // scenario measured later in the run.
    await warmUp(settings, prepared.flatMap(({ ready }) => ready), settings.warmupSeconds);
    for (let round = 1; round <= settings.rounds; round++) {
      const measured: SlicedMeasurement[] = [];
      for (const { scenario, ready } of prepared) {
        // The scenario's own loads again, right before it is measured (connections, caches).
        await warmUp(settings, ready, settings.rewarmSeconds);
        for (const concurrency of CONCURRENCIES) {
          measured.push(...await measureScenario(settings, scenario, ready, concurrency, round));
        }
      }
      for (const m of measured) {
        slices.set(id(m), [...slices.get(id(m)) ?? [], ...m.slices]);
        cpu.set(id(m), (cpu.get(id(m)) ?? 0) + m.cpuMs);
      }
      rounds.push(measured.map(({ slices: _, ...m }) => m));
    }
    await checkUsage(targets, prepared, failures, notes);
  } finally {
    await targets.stop();
  }
  // Every round measures the same pairs: pool each pair's slices over all rounds.
  const measurements = (rounds[0] ?? []).map((m) => {
    const result = summarizeLoads(slices.get(id(m))!);
    const cpuMs = cpu.get(id(m))!;
    return {
      scenario: m.scenario,
      target: m.target,
      concurrency: m.concurrency,
      result,
      cpuMs,
      cpuUsPerRequest: cpuUsPerRequest(cpuMs, result.requests),
      sliceThroughputs: slices.get(id(m))!.map(sliceThroughput),
    };
  });
  return { measurements, rounds, failures, notes, log: targets.gateway.stderr().trim() };
}

/** One scenario at one concurrency, one round: the targets take turns in short slices (in
 * reverse order every other slice), so a slow spell of this shared machine falls on all of them
 * alike instead of on whichever target ran during it, and none always runs right after the
 * same other. Each slice's CPU time is its serving process's, read just before the slice and
 * 100 ms after it (so the requests in flight at its end are counted too). */
async function measureScenario(
  settings: Settings,
  scenario: Scenario,
  ready: ReadyScenario["ready"],
  concurrency: number,
  round: number,
): Promise<SlicedMeasurement[]> {
  const slices = new Map<Target, LoadSamples[]>(ready.map(({ target }) => [target, []]));
  const cpu = new Map<Target, number>(ready.map(({ target }) => [target, 0]));
  const sliceMs = (settings.seconds * 1000) / SLICES;
  for (let slice = 0; slice < SLICES; slice++) {
    const order = slice % 2 === 0 ? ready : [...ready].reverse();
    for (const { target, request, pid } of order) {
      const { value, cpuMs } = await withCpuTime(
        pid,
        () => samplerOf(settings)({ ...request, concurrency, durationMs: sliceMs }),
      );
      slices.get(target)!.push(value);
      cpu.set(target, cpu.get(target)! + cpuMs);
    }
  }
  return ready.map(({ target }) => {
    const result = summarizeLoads(slices.get(target)!);
    const cpuMs = cpu.get(target)!;
    const perRequest = cpuUsPerRequest(cpuMs, result.requests);
    console.log(
      (settings.rounds > 1 ? `  r${round}` : "") +
        `  ${scenario.id.padEnd(22)} ${target.padEnd(9)} c=${String(concurrency).padEnd(3)}` +
        `${result.throughput.toFixed(0).padStart(7)} req/s  ` +
        `p50 ${result.p50.toFixed(3)} ms  p99 ${result.p99.toFixed(3)} ms  ` +
        `CPU ${perRequest.toFixed(1)} µs/req` +
        (result.errors > 0 ? `  ${result.errors} errors` : ""),
    );
    return {
      scenario: scenario.id,
      target,
      concurrency,
      round,
      result,
      cpuMs,
      cpuUsPerRequest: perRequest,
      sliceThroughputs: slices.get(target)!.map(sliceThroughput),
      slices: slices.get(target)!,
    };
  });
}
