/**
 * The command line of `deno task bench --only=observe`: how long each wrk run lasts, how many
 * rounds, and which configurations of the observers to compare.
 * @module
 */
import { checkOptions } from "../options.ts";

/** One way of running the real `main.ts`: what it observes. */
export interface ObserveConfig {
  id: "off" | "metrics" | "metrics+logs";
  label: string;
  /** The settings that make it so (added to the run's environment). */
  env: Record<string, string>;
  /** Whether every request writes a log line (its stderr then goes to /dev/null). */
  logs: boolean;
}

/** The configurations compared, in run order. */
export const OBSERVE_CONFIGS: readonly ObserveConfig[] = [
  {
    id: "off",
    label: "metrics off, no request log (GATEHOUSE_METRICS=off GATEHOUSE_QUIET=1)",
    env: { GATEHOUSE_METRICS: "off", GATEHOUSE_QUIET: "1" },
    logs: false,
  },
  {
    id: "metrics",
    label: "metrics on, no request log (GATEHOUSE_QUIET=1)",
    env: { GATEHOUSE_QUIET: "1" },
    logs: false,
  },
  {
    id: "metrics+logs",
    label: "metrics on and a JSON line per request (GATEHOUSE_LOG_FORMAT=json)",
    env: { GATEHOUSE_LOG_FORMAT: "json" },
    logs: true,
  },
];

/** The passthrough scenarios (`../scenarios.ts`) measured. */
export const OBSERVE_SCENARIOS = ["chat-json", "chat-stream"] as const;

/** The concurrencies: one request at a time (added latency), and 32 (throughput). */
export const OBSERVE_CONCURRENCIES = [1, 32] as const;

/** The run's settings. */
export interface ObserveSettings {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  configs: ObserveConfig[];
}

function numberArg(args: readonly string[], name: string, fallback: number): number {
  const raw = args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name}=${raw} is not a number`);
  return value;
}

/** Reads the settings from the bench's arguments; throws a message for a bad one. */
export function parseObserveSettings(args: readonly string[]): ObserveSettings {
  checkOptions(
    args,
    ["only", "configs", "seconds", "warmup", "rounds"],
    "deno task bench --only=observe",
  );
  const ids = args.find((a) => a.startsWith("--configs="))?.slice(10).split(",");
  const configs = ids === undefined ? [...OBSERVE_CONFIGS] : ids.map((id) => {
    const config = OBSERVE_CONFIGS.find((c) => c.id === id);
    if (config === undefined) {
      throw new Error(
        `--configs: no configuration "${id}" (${OBSERVE_CONFIGS.map((c) => c.id).join(", ")})`,
      );
    }
    return config;
  });
  if (!configs.some((c) => c.id === "off")) configs.unshift(OBSERVE_CONFIGS[0]!);
  return {
    seconds: numberArg(args, "seconds", 8),
    warmupSeconds: numberArg(args, "warmup", 3),
    rounds: Math.max(1, Math.round(numberArg(args, "rounds", 3))),
    configs,
  };
}
