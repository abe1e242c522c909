/**
 * `deno task bench --compare=<rev>`: gatehouse as this checkout has it against gatehouse at
 * another commit, both running at once in front of one fake upstream, in slices of wrk load that
 * alternate between them (`--rounds`, default 8; `--seconds` a slice; one scenario: the one
 * `--only` names, else chat JSON; `--target=policied` for the key under every policy with JSON
 * request logs). On a shared box whose speed drifts by more than a change is worth, a before and
 * after run minutes apart can say nothing; two builds measured in the same seconds can. The other
 * commit runs from a temporary worktree (`worktree.ts`).
 * @module
 */
import { withCpuTime } from "./cpu_time.ts";
import { formatComparison, type Round, type Slice } from "./compare_report.ts";
import { summarizeLoads } from "./load.ts";
import { type ChildServer, startChild } from "./processes.ts";
import type { Scenario, Target } from "./scenarios.ts";
import { GATEWAY_OPTIONS, gatewayRequest, type TargetRequest, validate } from "./targets.ts";
import { wrkSampleLoad } from "./wrk_load.ts";
import { withWorktree } from "./worktree.ts";

/** One slice of load on `server`: requests served and its process's CPU time meanwhile. */
async function slice(
  server: ChildServer,
  request: TargetRequest,
  concurrency: number,
  seconds: number,
): Promise<Slice> {
  const load = { ...request, concurrency, maxRequests: 1e9, durationMs: seconds * 1000 };
  // No settling wait: the next slice goes to the other build at once.
  const { value, cpuMs } = await withCpuTime(server.pid, () => wrkSampleLoad(load), 0);
  const result = summarizeLoads([value]);
  return { requests: result.requests, cpuMs, seconds: result.elapsedMs / 1000 };
}

/** Compares this checkout with `rev` on `scenario`; returns the exit code. */
export async function compareRevision(
  rev: string,
  scenario: Scenario,
  options: { seconds: number; rounds: number; concurrency: number; target: Target },
): Promise<number> {
  return await withWorktree(rev, async (tree, commit) => {
    const children: ChildServer[] = [];
    try {
      const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
      children.push(upstream);
      const settings = GATEWAY_OPTIONS[options.target === "policied" ? "policied" : "gatehouse"];
      const base = await startChild(`gatehouse at ${commit}`, `${tree}/bench/gateway_server.ts`, [
        upstream.url,
      ], { ...settings, cwd: tree });
      children.push(base);
      const head = await startChild(
        "gatehouse",
        "bench/gateway_server.ts",
        [upstream.url],
        settings,
      );
      children.push(head);
      const sides = [
        { server: base, request: gatewayRequest(base, scenario, options.target) },
        { server: head, request: gatewayRequest(head, scenario, options.target) },
      ];
      for (const side of sides) {
        const { problems } = await validate(side.request, scenario);
        if (problems.length > 0) {
          console.log(`${side.server.name}: the first request failed: ${problems.join("; ")}`);
          return 1;
        }
        await slice(side.server, side.request, options.concurrency, 2); // the JIT's warm-up
      }
      console.log(
        `${scenario.label}, c=${options.concurrency}, ${options.target} key: ${commit} against ` +
          `this checkout, ${options.rounds} rounds of ${options.seconds} s slices\n`,
      );
      const rounds: Round[] = [];
      for (let i = 0; i < options.rounds; i++) {
        // Each round starts with the build the last one ended with: neither always goes first.
        const order = i % 2 === 0 ? [0, 1] : [1, 0];
        const slices: Slice[] = [];
        for (const at of order) {
          const { server, request } = sides[at]!;
          slices[at] = await slice(server, request, options.concurrency, options.seconds);
        }
        rounds.push({ base: slices[0]!, head: slices[1]! });
      }
      console.log(formatComparison(commit, rounds));
      return 0;
    } finally {
      await Promise.all(children.map((child) => child.stop()));
    }
  });
}
