/**
 * `deno task bench --profile=<scenario>`: runs one scenario through gatehouse (at concurrency 32,
 * or `--concurrency=N`; with its unpolicied key, or `--target=policied` for the key under every
 * policy) with the V8 sampling profiler on, writes the profile to bench/results/
 * and prints where the gateway process spent its CPU time.
 * @module
 */
import { readProfileWhenWritten, summarize } from "./cpu_profile.ts";
import { type LoadResult, type LoadSpec, runLoad, summarizeLoads } from "./load.ts";
import { wrkSampleLoad } from "./wrk_load.ts";
import { table } from "./report.ts";
import type { FocusedRun } from "./scenarios.ts";
import { startTargets, targetRequest, validate } from "./targets.ts";

/** Profiles `scenario` through gatehouse (`target`: which key) for `seconds` at `concurrency`;
 * returns the exit code. */
export const profileScenario: FocusedRun = async (
  scenario,
  seconds,
  concurrency,
  target,
  generator,
) => {
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
    const file = new URL(`gatehouse-${scenario.id}${suffix}.cpuprofile`, dir);
    await Deno.remove(file).catch(() => {});
    // The policied target is its own process (every policy, metrics, JSON request logs).
    const gateway = target === "policied" ? targets.policiedGateway : targets.gateway;
    await gateway.send("profile start");
    const result = await runLoadWith({ ...load, durationMs: seconds * 1000 });
    await gateway.send(`profile stop ${file.pathname}`);
    const profile = await readProfileWhenWritten(file.pathname);

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
      `${scenario.label} through gatehouse (${target} key), c=${concurrency}: ${
        result.throughput.toFixed(0)
      } req/s (${generator}), ` +
        `${result.requests} requests in ${wall.toFixed(0)} ms; the gateway's event loop was busy ` +
        `${busy.toFixed(0)} ms (${((busy / wall) * 100).toFixed(0)}%), ` +
        `${(busy / result.requests).toFixed(3)} ms per request. Shares below are of busy time.\n`,
    );
    console.log(`Functions by self time\n${table(header, functions.slice(0, 30).map(row), 1)}\n`);
    console.log(`Files by self time\n${table(header, files.slice(0, 20).map(row), 1)}\n`);
    console.log(`wrote ${file.pathname} (open in Chrome DevTools → Performance)`);
    return 0;
  } finally {
    await targets.stop();
  }
};
