/**
 * `deno task bench --profile=<scenario>`: runs one scenario through gatehouse (at concurrency 32,
 * or `--concurrency=N`; with its unpolicied key, or `--target=policied` for the key under every
 * policy) with the V8 sampling profiler on, writes the profile to bench/results/
 * and prints where the gateway process spent its CPU time. `--allocations=<scenario>` runs the
 * same load under V8's sampling heap profiler instead and prints where the bytes a request
 * allocates were allocated, per request: the figure that stays put on a box whose speed drifts.
 * @module
 */
import { type AllocationSite, allocationSites, type SamplingNode } from "./allocation_sites.ts";
import { readProfileWhenWritten, summarize } from "./cpu_profile.ts";
import { type LoadResult, type LoadSpec, runLoad, summarizeLoads } from "./load.ts";
import { wrkSampleLoad } from "./wrk_load.ts";
import { table } from "./report.ts";
import type { FocusedRun, Scenario, Target } from "./scenarios.ts";
import { startTargets, targetRequest, validate } from "./targets.ts";

/** The average bytes between two sampled allocations. */
const ALLOCATION_SAMPLING_BYTES = 4096;

/** What one profiled run of a scenario is: the commands sent to the gateway around the measured
 * load, the file it writes, and what is printed from it. */
interface Profiling {
  suffix: string;
  start: string;
  stop: (file: string) => string;
  report: (file: string, result: LoadResult, heading: string) => Promise<void>;
}

/** Runs `scenario` through gatehouse (`target`'s key), warm, with `profiling` around the
 * measured load; returns the exit code. */
async function profiled(
  profiling: Profiling,
  scenario: Scenario,
  seconds: number,
  concurrency: number,
  target: Target,
  generator: "wrk" | "fetch",
): Promise<number> {
  // The load generator takes CPU time too: wrk's is outside the runtime being profiled.
  const runLoadWith = generator === "wrk"
    ? async (spec: LoadSpec): Promise<LoadResult> => summarizeLoads([await wrkSampleLoad(spec)])
    : runLoad;
  const targets = await startTargets();
  try {
    const request = targetRequest(targets, scenario, target);
    if (request === null) {
      console.log(`${scenario.id}: ${target} is not running`);
      return 1;
    }
    const { problems } = await validate(request, scenario);
    if (problems.length > 0) {
      console.log(`${scenario.id}: the first request failed: ${problems.join("; ")}`);
      return 1;
    }
    const load = { ...request, maxRequests: 200_000, concurrency };
    await runLoadWith({ ...load, durationMs: 1000 });
    const dir = new URL("./results/", import.meta.url);
    await Deno.mkdir(dir, { recursive: true });
    const suffix = target === "gatehouse" ? "" : `-${target}`;
    const file = new URL(`gatehouse-${scenario.id}${suffix}${profiling.suffix}`, dir).pathname;
    await Deno.remove(file).catch(() => {});
    // The policied target is its own process (every policy, metrics, JSON request logs).
    const gateway = target === "policied" ? targets.policiedGateway : targets.gateway;
    await gateway.send(profiling.start);
    const result = await runLoadWith({ ...load, durationMs: seconds * 1000 });
    await gateway.send(profiling.stop(file));
    const heading = `${scenario.label} through gatehouse (${target} key), c=${concurrency}: ${
      result.throughput.toFixed(0)
    } req/s (${generator}), ${result.requests} requests`;
    await profiling.report(file, result, heading);
    return 0;
  } finally {
    await targets.stop();
  }
}

/** Prints where the CPU time went. */
async function reportCpu(path: string, result: LoadResult, heading: string): Promise<void> {
  const profile = await readProfileWhenWritten(path);
  const summary = summarize(profile);
  const notIdle = (h: { name: string }) => !h.name.startsWith("(idle)");
  const functions = summary.functions.filter(notIdle);
  const files = summary.files.filter(notIdle);
  const wall = (profile.endTime - profile.startTime) / 1000;
  const busy = functions.reduce((sum, f) => sum + f.selfMs, 0);
  const row = (h: { name: string; selfMs: number; totalMs: number }) => [
    h.name.slice(0, 110),
    h.selfMs.toFixed(0),
    `${((h.selfMs / busy) * 100).toFixed(1)}%`,
    h.totalMs.toFixed(0),
    `${((h.totalMs / busy) * 100).toFixed(1)}%`,
  ];
  const header = ["", "self ms", "self", "total ms", "total"];
  console.log(
    `${heading} in ${wall.toFixed(0)} ms; the gateway's event loop was busy ` +
      `${busy.toFixed(0)} ms (${((busy / wall) * 100).toFixed(0)}%), ` +
      `${(busy / result.requests).toFixed(3)} ms per request. Shares below are of busy time.\n`,
  );
  console.log(`Functions by self time\n${table(header, functions.slice(0, 30).map(row), 1)}\n`);
  console.log(`Files by self time\n${table(header, files.slice(0, 20).map(row), 1)}\n`);
  console.log(`wrote ${path} (open in Chrome DevTools → Performance)`);
}

/** Prints where the allocations were made, in bytes per request. */
async function reportAllocations(
  path: string,
  result: LoadResult,
  heading: string,
): Promise<void> {
  const sites = allocationSites((await readProfileWhenWritten<{ head: SamplingNode }>(path)).head);
  const total = sites.reduce((sum, s) => sum + s.bytes, 0);
  const perRequest = (bytes: number) => (bytes / result.requests).toFixed(0);
  const row = (s: AllocationSite) => [
    s.site.slice(0, 110),
    perRequest(s.bytes),
    `${((s.bytes / total) * 100).toFixed(1)}%`,
  ];
  console.log(
    `${heading}; the gateway allocated about ${perRequest(total)} bytes per request ` +
      `(sampled every ${ALLOCATION_SAMPLING_BYTES} bytes on average, V8's estimate of the whole; ` +
      `the runtime's own JavaScript included). Largest sites:\n`,
  );
  console.log(table(["", "bytes/req", "share"], sites.slice(0, 40).map(row), 1));
  console.log(`\nwrote ${path} (open in Chrome DevTools → Memory)`);
}

/** Profiles `scenario` through gatehouse (`target`: which key) for `seconds` at `concurrency`;
 * returns the exit code. */
export const profileScenario: FocusedRun = (...run) =>
  profiled({
    suffix: ".cpuprofile",
    start: "profile start",
    stop: (file) => `profile stop ${file}`,
    report: reportCpu,
  }, ...run);

/** Samples `scenario`'s allocations in gatehouse (`target`: which key) for `seconds` at
 * `concurrency`; returns the exit code. */
export const allocationsScenario: FocusedRun = (...run) =>
  profiled({
    suffix: ".heapprofile",
    start: `allocations start ${ALLOCATION_SAMPLING_BYTES}`,
    stop: (file) => `allocations stop ${file}`,
    report: reportAllocations,
  }, ...run);
