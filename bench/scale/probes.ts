/**
 * What the scale bench checks before it measures, and the machine's load: the gateway's answer
 * to the scenario's request (and its rate-limit headers), and the direct and proxy targets it is
 * held against, each checked with one request.
 * @module
 */
import { rateLimitProblems } from "../policies.ts";
import type { ChildServer } from "../processes.ts";
import { requestHeaders, type Scenario } from "../scenarios.ts";
import { validate } from "../targets.ts";
import type { TurnTarget } from "./turns.ts";
import { wrkScript } from "./wrk.ts";

/** The processes every configuration is held against: the fake upstream (the `direct`
 * target) and the minimal proxy in front of it. */
export interface Baselines {
  upstream: ChildServer;
  proxy: ChildServer;
}

/** The key direct and proxy requests carry (the fake upstream accepts any). */
const CLIENT_KEY = "sk-bench-client";

/** Sends the scenario's request a few times (so every worker likely answers one) and returns
 * what is wrong with the answers. */
export async function probeGateway(
  url: string,
  scenario: Scenario,
  body: string,
  headers: Record<string, string>,
  policied: boolean,
): Promise<string[]> {
  const problems: string[] = [];
  for (let i = 0; i < 4; i++) {
    const response = await fetch(`${url}${scenario.path}`, { method: "POST", headers, body });
    const text = await response.text();
    if (response.status !== 200) {
      throw new Error(`${scenario.id}: probe answered ${response.status}: ${text.slice(0, 300)}`);
    }
    const missing = scenario.expect.filter((part) => !text.includes(part));
    if (missing.length > 0) problems.push(`${scenario.id}: the answer lacks ${missing.join(", ")}`);
    const target = policied ? "policied" : "gatehouse";
    problems.push(
      ...rateLimitProblems(response.headers, scenario.path, target).map((p) =>
        `${scenario.id}: ${p}`
      ),
    );
  }
  return [...new Set(problems)];
}

/** The direct and proxy targets of `scenario`, checked with one request each: the upstream
 * model id and a client key, as `../targets.ts` sends them. */
export async function baselineTargets(
  scenario: Scenario,
  baselines: Baselines,
): Promise<TurnTarget[]> {
  const body = JSON.stringify(scenario.body(scenario.upstreamModel));
  const headers = requestHeaders(scenario, CLIENT_KEY);
  const targets: TurnTarget[] = [];
  for (
    const [name, server] of [["direct", baselines.upstream], ["proxy", baselines.proxy]] as const
  ) {
    const url = `${server.url}${scenario.path}`;
    const { problems } = await validate({ url, headers, body }, scenario);
    if (problems.length > 0) throw new Error(`${scenario.id} ${name}: ${problems.join("; ")}`);
    targets.push({ name, url, script: wrkScript(body, headers), pid: server.pid });
  }
  return targets;
}

/** The 1-minute load average, or null where `/proc/loadavg` is not there (read by `cat`: Deno
 * lets only --allow-all read /proc). */
export async function loadAverage(): Promise<number | null> {
  try {
    const { success, stdout } = await new Deno.Command("cat", { args: ["/proc/loadavg"] })
      .output();
    const figure = Number(new TextDecoder().decode(stdout).split(" ")[0]);
    return success && Number.isFinite(figure) ? figure : null;
  } catch {
    return null;
  }
}
