/**
 * The targets as running processes — fake upstream, minimal proxy, gatehouse as operators run it
 * by default (metrics on; its unpolicied key), and gatehouse with everything on (its key and
 * team under every policy, metrics, a JSON log line per request) — and the request each scenario
 * sends to each of them.
 * @module
 */
import { type ChildOptions, type ChildServer, startChild } from "./processes.ts";
import { requestHeaders, type Scenario, type Target } from "./scenarios.ts";
import { installPortkey, portkeyHeaders, startPortkey } from "./portkey.ts";

/** The running targets. */
export interface Targets {
  upstream: ChildServer;
  proxy: ChildServer;
  gateway: ChildServer;
  /** The gatehouse API key the gateway created, with no policy. */
  key: string;
  /** The gateway with every policy, metrics and JSON request logs (the `policied` target). */
  policiedGateway: ChildServer;
  /** Its key with every policy set (`policies.ts`). */
  policiedKey: string;
  /** Portkey's gateway, or why it is not running (not asked for, no Node, install failed). */
  portkey: ChildServer | { skipped: string };
  stop(): Promise<void>;
}

/** Portkey's gateway when it can run, else why not. */
async function portkeyTarget(): Promise<ChildServer | { skipped: string }> {
  const installed = await installPortkey();
  if ("skipped" in installed) return installed;
  try {
    return await startPortkey(installed.script);
  } catch (error) {
    return { skipped: error instanceof Error ? error.message : String(error) };
  }
}

/** How each gatehouse target's process runs: quiet for the unpolicied key; a JSON line per
 * request (written, then dropped) for the one with everything on. */
export const GATEWAY_OPTIONS: Record<"gatehouse" | "policied", ChildOptions> = {
  gatehouse: { env: { GATEHOUSE_QUIET: "1" } },
  policied: { env: { GATEHOUSE_LOG_FORMAT: "json" }, discardStderr: true },
};

/** Starts the fake upstream, then the proxy and gatehouse in front of it, and Portkey's gateway
 * when `withPortkey`. */
export async function startTargets(withPortkey = false): Promise<Targets> {
  const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
  const portkey = withPortkey
    ? await portkeyTarget()
    : { skipped: "not asked for (only the JSON passthrough scenarios run through Portkey)" };
  const started = await Promise.allSettled([
    startChild("minimal proxy", "bench/minimal_proxy.ts", [upstream.url]),
    startChild("gatehouse", "bench/gateway_server.ts", [upstream.url], GATEWAY_OPTIONS.gatehouse),
    startChild(
      "gatehouse, everything on",
      "bench/gateway_server.ts",
      [upstream.url],
      GATEWAY_OPTIONS.policied,
    ),
  ]);
  const running = [upstream, ...started.flatMap((s) => s.status === "fulfilled" ? [s.value] : [])];
  const stop = async () => {
    await Promise.all(running.map((child) => child.stop()));
    if (!("skipped" in portkey)) await portkey.stop();
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const [proxy, gateway, policiedGateway] = running.slice(1) as [
    ChildServer,
    ChildServer,
    ChildServer,
  ];
  const { key } = gateway.announcement;
  const { policiedKey } = policiedGateway.announcement;
  if (key === undefined || policiedKey === undefined) {
    await stop();
    throw new Error("gatehouse did not announce its API keys");
  }
  return { upstream, proxy, gateway, key, policiedGateway, policiedKey, portkey, stop };
}

/** What one scenario sends to one target. */
export interface TargetRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The process that serves `target`'s requests, whose CPU time is the target's: the fake
 * upstream for `direct`, the proxy, the gatehouse process of the key, or Portkey's Node process;
 * null for Portkey when it is not running. */
export function serverOf(targets: Targets, target: Target): ChildServer | null {
  switch (target) {
    case "direct":
      return targets.upstream;
    case "proxy":
      return targets.proxy;
    case "gatehouse":
      return targets.gateway;
    case "policied":
      return targets.policiedGateway;
    case "portkey":
      return "skipped" in targets.portkey ? null : targets.portkey;
  }
}

/** The request `scenario` sends to `target`: gatehouse gets the public model id and one of its
 * keys, direct, proxy and Portkey the upstream id (the same body gatehouse forwards); Portkey
 * also its routing headers. Null when the target is not running. */
export function targetRequest(
  targets: Targets,
  scenario: Scenario,
  target: Target,
): TargetRequest | null {
  const client = "sk-bench-client";
  const keys: Record<Target, string> = {
    direct: client,
    proxy: client,
    gatehouse: targets.key,
    policied: targets.policiedKey,
    portkey: client,
  };
  const server = serverOf(targets, target);
  if (server === null) return null;
  const viaGateway = target === "gatehouse" || target === "policied";
  const routing = target === "portkey"
    ? portkeyHeaders(scenario.anthropicHeaders ? "anthropic" : "openai", targets.upstream.url)
    : {};
  const request = scenarioRequest(server, scenario, keys[target], viaGateway);
  return { ...request, headers: { ...request.headers, ...routing } };
}

/** What `scenario` sends to `server` with `key`: the public model id to a gatehouse process
 * (`viaGateway`), else the upstream's. */
export function scenarioRequest(
  server: ChildServer,
  scenario: Scenario,
  key: string,
  viaGateway: boolean,
): TargetRequest {
  return {
    url: server.url + scenario.path,
    headers: requestHeaders(scenario, key),
    body: JSON.stringify(scenario.body(viaGateway ? scenario.model : scenario.upstreamModel)),
  };
}

/** What `scenario` sends to a bench gateway process (`gateway_server.ts`): with its unpolicied
 * key, or with the policied one for `target` policied. */
export function gatewayRequest(
  server: ChildServer,
  scenario: Scenario,
  target: Target,
): TargetRequest {
  const { key, policiedKey } = server.announcement;
  return scenarioRequest(server, scenario, (target === "policied" ? policiedKey : key) ?? "", true);
}

/** Sends one request and says what is wrong with its answer: not a success, or missing an
 * expected part. Translation warnings are returned apart: they are reported, not fatal; so are
 * the response headers (the caller checks the rate-limit ones). */
export async function validate(
  request: TargetRequest,
  scenario: Scenario,
): Promise<{ problems: string[]; warnings: string | null; headers: Headers }> {
  const response = await fetch(request.url, {
    method: "POST",
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  const problems: string[] = [];
  if (!response.ok) problems.push(`HTTP ${response.status}: ${text.slice(0, 400)}`);
  else {
    for (const expected of scenario.expect) {
      if (!text.includes(expected)) problems.push(`the body lacks ${JSON.stringify(expected)}`);
    }
  }
  return {
    problems,
    warnings: response.headers.get("x-gatehouse-warnings"),
    headers: response.headers,
  };
}

/** The `GET /v1/usage` answer for the gatehouse key of `target` (`gatehouse` or `policied`). */
export async function usageOf(targets: Targets, target: Target): Promise<Record<string, unknown>> {
  const policied = target === "policied";
  const key = policied ? targets.policiedKey : targets.key;
  const server = policied ? targets.policiedGateway : targets.gateway;
  const response = await fetch(`${server.url}/v1/usage`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`GET /v1/usage: HTTP ${response.status}: ${text.slice(0, 300)}`);
  }
  return JSON.parse(text) as Record<string, unknown>;
}
