/**
 * `deno task bench --instructions=<scenario>`: the instructions gatehouse executes per request,
 * counted by valgrind's callgrind (the gateway process, every thread, V8's JIT code included)
 * while the bench sends an exact number of requests. A count does not depend on how busy or
 * how fast the machine is, so it settles whether a change removes work on a box whose CPU time
 * per request drifts by more between runs. Instructions are not time: it says nothing of system
 * calls, cache misses or stalls, and the minimal proxy executes more of them per chat JSON
 * request than gatehouse (about 472 against 420 k) in less CPU time.
 *
 * The gateway runs under callgrind with V8's `--predictable` (no concurrent compilation or
 * marking: every run does the same work in the same order), 50–100 times slower than natively.
 * It first serves {@link WARMUP_REQUESTS} so the JIT has optimised the path, then each round
 * zeroes the counters, sends `--requests` (default 3,000) at `--concurrency` and reads the count
 * (`callgrind_control`). Rounds differ: in every chat JSON run the third counted about half as
 * much again (most likely V8's first full collection of the old generation), so the median of
 * the rounds is the figure. With `--compare=<rev>` the commit's build is counted in the same run
 * (`worktree.ts`), both builds at once, one per core, and compared round by round: both meet that
 * round's extra work alike (measured, the same build twice: rounds 423.0 / 425.6, 411.1 / 412.8,
 * 648.6 / 649.3 k). The policied key's counts follow the clock (its windows, the ledger's
 * batches): count it with `--compare` only.
 * `--target=proxy` counts the minimal proxy instead: the reference, as in the throughput runs.
 * @module
 */
import { fileURLToPath } from "node:url";
import { runCommand } from "./command.ts";
import { sampleLoad } from "./load.ts";
import { type ChildServer, startChild } from "./processes.ts";
import type { Scenario, Target } from "./scenarios.ts";
import {
  GATEWAY_OPTIONS,
  gatewayRequest,
  scenarioRequest,
  type TargetRequest,
  validate,
} from "./targets.ts";
import { withWorktree } from "./worktree.ts";

/** Requests served before the first counted round. */
export const WARMUP_REQUESTS = 8_000;

/** How a count is run. */
export interface InstructionOptions {
  target: Target;
  concurrency: number;
  /** Requests per round. */
  requests: number;
  rounds: number;
  /** Count this commit's build too, in the same run. */
  compare: string | null;
}

/** The total instructions of a callgrind dump (its `totals:` line, else `summary:`). */
export function dumpTotal(text: string): number {
  const found = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
  if (found === null) throw new Error("the callgrind dump has no totals line");
  return Number(found[1]);
}

/** The newest of the dumps callgrind wrote on request in `dir` (`callgrind.out.<pid>.<n>`; the
 * one it writes at exit has no `<n>`). */
export function newestDump(dir: string): string {
  let newest: { name: string; n: number } | null = null;
  for (const { name } of Deno.readDirSync(dir)) {
    const n = Number(/\.\d+\.(\d+)$/.exec(name)?.[1] ?? NaN);
    if (n > (newest?.n ?? 0)) newest = { name, n };
  }
  if (newest === null) throw new Error(`callgrind wrote no dump in ${dir}`);
  return newest.name;
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One build's counts: instructions per request in each round. */
export interface BuildCount {
  label: string;
  rounds: number[];
}

/** The report: each build's rounds and median in thousands of instructions per request, and
 * the second build's median against the first's. */
export function formatInstructions(counts: readonly BuildCount[]): string {
  const k = (n: number) => (n / 1000).toFixed(1);
  const width = Math.max(...counts.map((c) => c.label.length));
  const lines = counts.map((c) =>
    `${c.label.padEnd(width)}  median ${k(median(c.rounds))} k  (rounds: ${
      c.rounds.map(k).join(", ")
    })`
  );
  if (counts.length === 2) {
    // Both builds serve the same requests in the same order, round by round: a round where V8
    // collects the old generation is that round for both, so rounds are compared pairwise.
    const [base, head] = counts as [BuildCount, BuildCount];
    const ratios = head.rounds.map((n, i) => n / base.rounds[i]!);
    lines.push(
      `${head.label} / ${base.label}: x${median(ratios).toFixed(3)} instructions per request ` +
        `(rounds: ${ratios.map((r) => r.toFixed(3)).join(", ")})`,
    );
  }
  return lines.join("\n");
}

/** One gatehouse build under callgrind, the directory its dumps go to, and what it is sent. */
interface Counted {
  label: string;
  server: ChildServer;
  dumps: string;
  request: TargetRequest;
}

async function startCounted(
  label: string,
  cwd: string,
  upstream: string,
  options: InstructionOptions,
  scenario: Scenario,
): Promise<Counted> {
  const dumps = await Deno.makeTempDir({ prefix: "gatehouse_callgrind_" });
  const proxy = options.target === "proxy";
  const settings = proxy
    ? {}
    : GATEWAY_OPTIONS[options.target === "policied" ? "policied" : "gatehouse"];
  const script = `${cwd}/bench/${proxy ? "minimal_proxy" : "gateway_server"}.ts`;
  // Started natively once first: the runtime compiles each module of a checkout it has not run
  // before, which under callgrind takes minutes.
  await (await startChild(label, script, [upstream], { ...settings, cwd })).stop();
  let server: ChildServer;
  try {
    server = await startChild(label, script, [upstream], {
      ...settings,
      env: { ...settings.env ?? {}, DENO_V8_FLAGS: "--predictable" },
      cwd,
      wrapper: [
        "valgrind",
        "--tool=callgrind",
        // V8 writes and rewrites machine code in anonymous memory.
        "--smc-check=all-non-file",
        `--callgrind-out-file=${dumps}/callgrind.out.%p`,
      ],
    });
  } catch (error) {
    await Deno.remove(dumps, { recursive: true }).catch(() => {});
    throw error;
  }
  const request = proxy
    ? scenarioRequest(server, scenario, "sk-bench-client", false)
    : gatewayRequest(server, scenario, options.target);
  return { label, server, dumps, request };
}

async function control(pid: number, flag: string): Promise<void> {
  const result = await runCommand("callgrind_control", [flag, String(pid)]);
  if ("failed" in result) throw new Error(`callgrind_control ${flag}: ${result.failed}`);
}

/** Sends exactly `requests` requests; throws on any failure (a count of failures means little). */
async function send(counted: Counted, requests: number, concurrency: number): Promise<void> {
  const samples = await sampleLoad({
    ...counted.request,
    concurrency,
    maxRequests: requests,
    durationMs: Infinity,
  });
  if (samples.errors > 0) {
    throw new Error(`${counted.label}: ${samples.errors} requests failed: ${samples.firstError}`);
  }
}

/** The rounds of one build: instructions per request in each. */
async function countRounds(counted: Counted, options: InstructionOptions): Promise<number[]> {
  const { pid } = counted.server;
  await send(counted, WARMUP_REQUESTS, options.concurrency);
  const perRequest: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    await control(pid, "--zero");
    await send(counted, options.requests, options.concurrency);
    await control(pid, "--dump");
    const text = await Deno.readTextFile(`${counted.dumps}/${newestDump(counted.dumps)}`);
    perRequest.push(dumpTotal(text) / options.requests);
  }
  return perRequest;
}

/** Counts `scenario` through this checkout (and the `--compare` commit); returns the exit code. */
export async function instructionsScenario(
  scenario: Scenario,
  options: InstructionOptions,
): Promise<number> {
  for (const tool of ["valgrind", "callgrind_control"]) {
    const found = await runCommand(tool, ["--version"]);
    if ("failed" in found) {
      console.log(`--instructions needs ${tool}: ${found.failed} (apt-get install valgrind)`);
      return 1;
    }
  }
  const measure = async (builds: Array<{ label: string; cwd: string }>) => {
    const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
    const counted: Counted[] = [];
    try {
      for (const build of builds) {
        counted.push(await startCounted(build.label, build.cwd, upstream.url, options, scenario));
      }
      for (const c of counted) {
        const { problems } = await validate(c.request, scenario);
        if (problems.length > 0) throw new Error(`${c.label}: ${problems.join("; ")}`);
      }
      console.log(
        `${scenario.label}, c=${options.concurrency}, ${options.target}: thousands of ` +
          `instructions per request under callgrind, ${options.rounds} rounds of ` +
          `${options.requests} requests after ${WARMUP_REQUESTS} (several minutes)\n`,
      );
      const rounds = await Promise.all(counted.map((c) => countRounds(c, options)));
      console.log(
        formatInstructions(counted.map((c, i) => ({ label: c.label, rounds: rounds[i]! }))),
      );
      return 0;
    } finally {
      await Promise.all([...counted.map((c) => c.server.stop()), upstream.stop()]);
      for (const c of counted) await Deno.remove(c.dumps, { recursive: true }).catch(() => {});
    }
  };
  const here = { label: "this checkout", cwd: fileURLToPath(new URL("..", import.meta.url)) };
  if (options.compare === null) return await measure([here]);
  return await withWorktree(
    options.compare,
    (tree, commit) => measure([{ label: commit, cwd: tree }, here]),
  );
}
