/**
 * `deno task bench`: starts a fake upstream, a minimal Deno proxy and gatehouse as separate
 * processes on loopback ports, measures every scenario against each target at concurrency 1 and
 * 32, prints the tables and the PASS/MISS target checks, and writes bench/results/latest.json.
 *
 *   deno task bench                       the full run (about a minute and a half)
 *   deno task bench --seconds=1           shorter measurements
 *   deno task bench --only=chat-stream    one scenario (plus the baselines it needs)
 * @module
 */
import { runLoad } from "./load.ts";
import { startChild } from "./processes.ts";
import {
  addedLatencies,
  checks,
  CONCURRENCIES,
  formatReport,
  type Measurement,
  TARGETS,
} from "./report.ts";
import { requestHeaders, type Scenario, SCENARIOS, type Target } from "./scenarios.ts";

/** Run settings. */
interface Settings {
  /** Seconds per measurement. */
  seconds: number;
  /** Seconds of warm-up per scenario and target. */
  warmupSeconds: number;
  /** Most requests per measurement. */
  maxRequests: number;
  scenarios: Scenario[];
}

function parseSettings(args: string[]): Settings {
  const value = (name: string) =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const seconds = Number(value("seconds") ?? 2.5);
  if (!(seconds > 0)) throw new Error(`--seconds must be a positive number of seconds`);
  const only = value("only")?.split(",");
  let scenarios = SCENARIOS;
  if (only) {
    const unknown = only.filter((id) => !SCENARIOS.some((s) => s.id === id));
    if (unknown.length > 0) {
      throw new Error(
        `unknown scenario ${unknown.join(", ")}; known: ${SCENARIOS.map((s) => s.id).join(", ")}`,
      );
    }
    const wanted = new Set(only);
    for (const id of only) {
      const baseline = SCENARIOS.find((s) => s.id === id)?.baseline;
      if (baseline) wanted.add(baseline);
    }
    scenarios = SCENARIOS.filter((s) => wanted.has(s.id));
  }
  return {
    seconds,
    warmupSeconds: Math.min(1, seconds),
    maxRequests: 200_000,
    scenarios,
  };
}

/** Sends one request and checks the answer is a complete, successful one. */
async function validate(
  url: string,
  headers: Record<string, string>,
  body: string,
  scenario: Scenario,
): Promise<string[]> {
  const response = await fetch(url, { method: "POST", headers, body });
  const text = await response.text();
  const problems: string[] = [];
  if (!response.ok) problems.push(`HTTP ${response.status}: ${text.slice(0, 400)}`);
  for (const expected of scenario.expect) {
    if (response.ok && !text.includes(expected)) problems.push(`the body lacks ${expected}`);
  }
  const warnings = response.headers.get("x-gatehouse-warnings");
  if (warnings) problems.push(`translation warnings: ${warnings}`);
  return problems;
}

async function main(): Promise<number> {
  const settings = parseSettings(Deno.args);
  const runs = settings.scenarios.reduce((n, s) => n + s.targets.length, 0);
  const estimate = runs * (settings.warmupSeconds + CONCURRENCIES.length * settings.seconds);
  console.log(
    `gatehouse bench: ${settings.scenarios.length} scenarios, ${runs} scenario×target runs, ` +
      `c=${CONCURRENCIES.join(" and c=")}, ${settings.seconds}s each (about ${
        Math.round(estimate)
      }s). ${navigator.hardwareConcurrency} CPUs.`,
  );

  const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
  const others = await Promise.allSettled([
    startChild("minimal proxy", "bench/minimal_proxy.ts", [upstream.url]),
    startChild("gatehouse", "bench/gateway_server.ts", [upstream.url], { GATEHOUSE_QUIET: "1" }),
  ]);
  const children = [
    upstream,
    ...others.flatMap((o) => o.status === "fulfilled" ? [o.value] : []),
  ];
  const measurements: Measurement[] = [];
  const failures: string[] = [];
  try {
    const failed = others.find((o) => o.status === "rejected");
    if (failed) throw failed.reason;
    const [proxy, gateway] = children.slice(1);
    const base: Record<Target, string> = {
      direct: upstream.url,
      proxy: proxy!.url,
      gatehouse: gateway!.url,
    };
    const gatewayKey = gateway!.announcement.key!;
    console.log(
      `upstream ${upstream.url}, proxy ${proxy!.url}, gatehouse ${gateway!.url}\n`,
    );

    for (const scenario of settings.scenarios) {
      for (const target of scenario.targets) {
        const viaGateway = target === "gatehouse";
        const url = base[target] + scenario.path;
        const headers = requestHeaders(scenario, viaGateway ? gatewayKey : "sk-bench-client");
        const body = JSON.stringify(
          scenario.body(viaGateway ? scenario.model : scenario.upstreamModel),
        );
        const problems = await validate(url, headers, body, scenario);
        if (problems.length > 0) {
          failures.push(`${scenario.label} / ${target}: ${problems.join("; ")}`);
          console.log(`  ${scenario.id} ${target}: NOT MEASURED — ${problems.join("; ")}`);
          continue;
        }
        const load = { url, headers, body, maxRequests: settings.maxRequests };
        await runLoad({ ...load, concurrency: 8, durationMs: settings.warmupSeconds * 1000 });
        for (const concurrency of CONCURRENCIES) {
          const result = await runLoad({
            ...load,
            concurrency,
            durationMs: settings.seconds * 1000,
          });
          measurements.push({ scenario: scenario.id, target, concurrency, result });
          console.log(
            `  ${scenario.id.padEnd(22)} ${target.padEnd(9)} c=${String(concurrency).padEnd(3)}` +
              `${result.throughput.toFixed(0).padStart(7)} req/s  p50 ${
                result.p50.toFixed(3)
              } ms  p99 ${result.p99.toFixed(3)} ms` +
              (result.errors > 0 ? `  ${result.errors} errors` : ""),
          );
        }
      }
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }

  console.log(`\n${formatReport(settings.scenarios, measurements)}`);
  const gatewayLog = children.find((c) => c.name === "gatehouse")?.stderr().trim() ?? "";
  if (gatewayLog !== "") {
    const lines = gatewayLog.split("\n");
    console.log(`\ngatehouse wrote ${lines.length} log line(s) to stderr; the first:`);
    for (const line of lines.slice(0, 5)) console.log(`  ${line.slice(0, 300)}`);
  }
  if (failures.length > 0) {
    console.log(`\nNot measured (the first request failed):\n  ${failures.join("\n  ")}`);
  }

  const resultsDir = new URL("./results/", import.meta.url);
  await Deno.mkdir(resultsDir, { recursive: true });
  const file = new URL("latest.json", resultsDir);
  await Deno.writeTextFile(
    file,
    JSON.stringify(
      {
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
        failures,
      },
      null,
      2,
    ) + "\n",
  );
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
