/**
 * The streams bench's arguments.
 * @module
 */
import { TARGET_NAMES, type TargetName } from "./targets.ts";
import { checkOptions } from "../options.ts";

/** One streams run's settings. */
export interface StreamSettings {
  /** The targets, run one after another in one invocation. */
  targets: TargetName[];
  reader: "raw" | "fetch";
  streams: number;
  chunks: number;
  intervalMs: number;
  rampMs: number;
  /** Start the measured process with `--inspect` and read its memory from inside. */
  inspect: boolean;
  /** Where to write heap snapshots (`<snapshot>-idle.heapsnapshot`, and `-open` while every
   * stream is open); implies inspect. */
  snapshot: string | null;
  /** Where to write a CPU profile of the measured process during the streams (implies
   * inspect); its hot spots are printed. */
  cpuProfile: string | null;
  /** Sample the measured process's allocations during the streams and print where they were
   * made (implies inspect). */
  allocations: boolean;
  /** Where to write what the measured process printed (with `--v8-flags=--trace-gc`, say). */
  output: string | null;
  /** `DENO_V8_FLAGS` of the measured process. */
  v8Flags: string | null;
  /** Bytes of text added to each request's last message (0: the bench's usual chat). */
  promptBytes: number;
  /** Extra environment for gatehouse (`--env=NAME=VALUE`, repeatable). */
  env: Record<string, string>;
  /** Gatehouse's worker threads (`--workers=N`: one process, N threads on its port). */
  workers: number;
}

/** The name a run's results go by: the target, with its workers when more than one. */
export function runLabel(target: TargetName, workers: number): string {
  return target === "gatehouse" && workers > 1 ? `gatehouse, ${workers} workers` : target;
}

/** The results file of a run, in `bench/results/`. */
export function resultsFile(target: TargetName, workers: number): string {
  if (target !== "gatehouse") return `streams-${target}.json`;
  return workers > 1 ? `streams-workers${workers}.json` : "streams.json";
}

function valueOf(args: readonly string[], name: string): string | undefined {
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function numberArg(args: readonly string[], name: string, fallback: number): number {
  const raw = valueOf(args, name);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number`);
  return value;
}

/** Reads the settings from the bench's arguments. */
export function streamSettings(args: readonly string[]): StreamSettings {
  checkOptions(args, [
    "only",
    "target",
    "reader",
    "streams",
    "chunks",
    "interval",
    "ramp",
    "prompt-bytes",
    "workers",
    "env",
    "inspect",
    "snapshot",
    "cpu-profile",
    "allocations",
    "v8-flags",
    "output",
  ], "deno task bench --only=streams");
  const targets = (valueOf(args, "target") ?? "gatehouse").split(",") as TargetName[];
  for (const target of targets) {
    if (!TARGET_NAMES.includes(target)) {
      throw new Error(`--target must be among ${TARGET_NAMES.join(", ")}, not ${target}`);
    }
  }
  const reader = valueOf(args, "reader") ?? "raw";
  if (reader !== "raw" && reader !== "fetch") throw new Error("--reader must be raw or fetch");
  const snapshot = valueOf(args, "snapshot") ?? null;
  const cpuProfile = valueOf(args, "cpu-profile") ?? null;
  const env: Record<string, string> = {};
  for (const arg of args.filter((a) => a.startsWith("--env="))) {
    const [name, ...value] = arg.slice("--env=".length).split("=");
    env[name!] = value.join("=");
  }
  const workers = valueOf(args, "workers") === undefined ? 1 : numberArg(args, "workers", 1);
  if (workers > 1) env.GATEHOUSE_WORKERS = String(workers);
  const inspect = args.includes("--inspect") || snapshot !== null || cpuProfile !== null ||
    args.includes("--allocations");
  // The inspector reaches the first thread only: the workers' heaps would go unseen.
  if (workers > 1 && inspect) throw new Error("--workers does not go with looking inside");
  return {
    targets,
    reader,
    streams: numberArg(args, "streams", 10_000),
    chunks: numberArg(args, "chunks", 60),
    intervalMs: numberArg(args, "interval", 500),
    rampMs: numberArg(args, "ramp", 10_000),
    promptBytes: valueOf(args, "prompt-bytes") === undefined
      ? 0
      : numberArg(args, "prompt-bytes", 0),
    inspect,
    allocations: args.includes("--allocations"),
    snapshot,
    cpuProfile,
    v8Flags: valueOf(args, "v8-flags") ?? null,
    output: valueOf(args, "output") ?? null,
    env,
    workers,
  };
}
