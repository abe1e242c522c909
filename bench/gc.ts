/**
 * `deno task bench --gc=<scenario>`: what one scenario costs the garbage collector, per request,
 * in the minimal proxy and in gatehouse (`--target=policied`: the key under every policy, with
 * metrics and JSON logs), each its own process run with V8's `--trace-gc-nvp`: bytes allocated,
 * bytes that outlived a scavenge and were promoted to the old generation (which only a full
 * collection, on V8's helper threads and the main one, frees again), the main thread's pauses,
 * and CPU µs per request beside them. Bytes per request are steady from run to run where CPU
 * time on a shared box is not: the figure to compare before and after a change that allocates
 * less.
 * @module
 */
import { gcPerRequest, parseGcTrace } from "./gc_trace.ts";
import { processCpuMs } from "./cpu_time.ts";
import { type ChildServer, startChild } from "./processes.ts";
import { table } from "./report.ts";
import { type FocusedRun, requestHeaders } from "./scenarios.ts";
import { summarizeLoads } from "./load.ts";
import { wrkSampleLoad } from "./wrk_load.ts";

const TRACE = ["--v8-flags=--trace-gc-nvp"];

/** One traced process and the request it is sent. */
interface Traced {
  label: string;
  server: ChildServer;
  url: string;
  headers: Record<string, string>;
  body: string;
}

async function measure(traced: Traced, seconds: number, concurrency: number) {
  const load = {
    url: traced.url,
    headers: traced.headers,
    body: traced.body,
    concurrency,
    maxRequests: 1e9,
  };
  await wrkSampleLoad({ ...load, durationMs: 2000 }); // warm-up: the JIT, the heap's sizing
  const mark = traced.server.stdout().length;
  const before = await processCpuMs(traced.server.pid);
  const result = summarizeLoads([await wrkSampleLoad({ ...load, durationMs: seconds * 1000 })]);
  await new Promise((resolve) => setTimeout(resolve, 200)); // the last lines and CPU time
  const cpuMs = (await processCpuMs(traced.server.pid)) - before;
  const totals = parseGcTrace(traced.server.stdout().slice(mark));
  return { result, cpuMs, totals, per: gcPerRequest(totals, result.requests) };
}

/** Measures `scenario` through the proxy and gatehouse (`target`); returns the exit code. Needs
 * wrk: a load generator in this process would not disturb the traced ones, but its pace would
 * differ from the other runs'. */
export const gcScenario: FocusedRun = async (scenario, seconds, concurrency, target, generator) => {
  if (generator !== "wrk") {
    console.log("--gc drives its load with wrk, which is not installed: apt-get install wrk");
    return 1;
  }
  const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
  const children: ChildServer[] = [upstream];
  try {
    const traced = { runtimeFlags: TRACE, keepStdout: true };
    const proxy = await startChild(
      "minimal proxy",
      "bench/minimal_proxy.ts",
      [upstream.url],
      traced,
    );
    children.push(proxy);
    const policied = target === "policied";
    const gateway = await startChild("gatehouse", "bench/gateway_server.ts", [upstream.url], {
      ...traced,
      env: policied ? { GATEHOUSE_LOG_FORMAT: "json" } : { GATEHOUSE_QUIET: "1" },
      discardStderr: policied,
    });
    children.push(gateway);
    const key = policied ? gateway.announcement.policiedKey : gateway.announcement.key;
    if (key === undefined) throw new Error("gatehouse did not announce its API keys");
    const targets: Traced[] = [
      {
        label: "proxy",
        server: proxy,
        url: proxy.url + scenario.path,
        headers: requestHeaders(scenario, "sk-bench-client"),
        body: JSON.stringify(scenario.body(scenario.upstreamModel)),
      },
      {
        label: target,
        server: gateway,
        url: gateway.url + scenario.path,
        headers: requestHeaders(scenario, key),
        body: JSON.stringify(scenario.body(scenario.model)),
      },
    ];
    const rows: string[][] = [];
    for (const one of targets) {
      const { result, cpuMs, totals, per } = await measure(one, seconds, concurrency);
      if (result.errors > 0) {
        console.log(`${one.label}: ${result.errors} of ${result.requests} requests failed`);
        return 1;
      }
      const kb = (bytes: number) => (bytes / 1024).toFixed(1);
      rows.push([
        one.label,
        String(result.requests),
        ((cpuMs * 1000) / result.requests).toFixed(1),
        kb(per.allocatedBytes),
        kb(per.survivedBytes),
        kb(per.promotedBytes),
        `${totals.scavenges} · ${per.scavengePauseUs.toFixed(1)}`,
        `${totals.fullGcs} · ${per.fullPauseUs.toFixed(1)}`,
      ]);
    }
    console.log(
      `${scenario.label}, c=${concurrency}, ${seconds} s per target (wrk; V8 --trace-gc-nvp)\n\n` +
        table(
          [
            "target",
            "requests",
            "CPU µs/req",
            "allocated KiB/req",
            "survived KiB/req",
            "promoted KiB/req",
            "scavenges · pause µs/req",
            "full GCs · pause µs/req",
          ],
          rows,
          1,
        ) +
        "\n\nPromoted bytes outlived a scavenge and wait in the old generation for a full " +
        "collection (marked on V8's helper threads, then swept): the costlier kind of garbage.",
    );
    return 0;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
};
