/**
 * The external load generator of `deno task bench` (issue #19): `wrk`, a native program that
 * does not share the measured processes' runtime (an in-process `fetch` loop takes the same
 * kind of CPU time as the gateway and flattens the differences between targets). One slice is
 * one wrk run at the slice's concurrency and length; its Lua `done` hook prints the counts and
 * 1,000 latency quantiles (every 0.1 percentile), which stand for the slice's latencies when
 * slices are pooled.
 * @module
 */
import type { LoadSamples, LoadSpec } from "./load.ts";
import { wrkScript } from "./scale/wrk.ts";

/** Quantiles printed per run: enough for p50 and p99 of pooled slices. */
export const QUANTILES = 1000;

/** The Lua `done` hook: counts, then the quantiles in microseconds, one line each (what
 * {@link parseWrkDone} reads; appended to a request script). */
export const WRK_DONE_HOOK = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("GATEHOUSE-WRK %d %d %d %d\\n", summary.requests, summary.duration,
    e.status, e.connect + e.read + e.write + e.timeout))
  local q = {}
  for i = 1, ${QUANTILES} do q[i] = string.format("%d", latency:percentile(i * 100 / ${QUANTILES})) end
  io.write("GATEHOUSE-WRK-Q ", table.concat(q, " "), "\\n")
end
`;

/** What the `done` hook printed. */
export function parseWrkDone(output: string): LoadSamples {
  const counts = /^GATEHOUSE-WRK (\d+) (\d+) (\d+) (\d+)$/m.exec(output);
  const quantiles = /^GATEHOUSE-WRK-Q ([\d ]+)$/m.exec(output);
  if (counts === null || quantiles === null) {
    throw new Error(`wrk printed no summary (its script failed?):\n${output.slice(0, 2000)}`);
  }
  const [requests, durationUs, statusErrors, socketErrors] = counts.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
  ];
  const errors = statusErrors + socketErrors;
  const completed = Math.max(0, requests - statusErrors);
  const values = quantiles[1]!.trim().split(" ").map((us) => Number(us) / 1000);
  return {
    latencies: completed === 0 ? new Float64Array() : Float64Array.from(values),
    requests: completed,
    errors,
    firstError: errors === 0 ? null : `wrk: ${statusErrors} non-2xx answers, ` +
      `${socketErrors} socket errors`,
    elapsedMs: durationUs / 1000,
  };
}

/** Runs `spec` through wrk (threads: 1 at c=1, else 2); `maxRequests` does not apply. */
export async function wrkSampleLoad(spec: LoadSpec): Promise<LoadSamples> {
  const file = await Deno.makeTempFile({ prefix: "gatehouse_bench_", suffix: ".lua" });
  try {
    await Deno.writeTextFile(file, wrkScript(spec.body, spec.headers) + WRK_DONE_HOOK);
    const seconds = Math.max(1, Math.round(spec.durationMs / 1000));
    const threads = Math.min(2, spec.concurrency);
    const { code, stdout, stderr } = await new Deno.Command("wrk", {
      args: [`-t${threads}`, `-c${spec.concurrency}`, `-d${seconds}s`, "-s", file, spec.url],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const output = new TextDecoder().decode(stdout);
    if (code !== 0) {
      throw new Error(`wrk exited with ${code}: ${new TextDecoder().decode(stderr)}${output}`);
    }
    return parseWrkDone(output);
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
