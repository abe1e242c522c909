/**
 * The command line of `deno task bench --only=scale`: which gateway configurations, how long,
 * and where Postgres and Redis are.
 * @module
 */
import { DEFAULT_POSTGRES_ADMIN_URL } from "./databases.ts";
import { checkOptions } from "../options.ts";

/** One way of running the real `main.ts`. */
export interface ScaleConfig {
  id: "a" | "b" | "c" | "d" | "e" | "f";
  label: string;
  workers: number;
  /** `sqlite`: a temp file (GATEHOUSE_DB); `postgres`: a fresh database (DATABASE_URL). */
  store: "sqlite" | "postgres";
  /** REDIS_URL is set: the limits are counted in Redis (else in the process). */
  redis: boolean;
  /** The key has every policy, in a team with every policy (`../policies.ts`). */
  policied: boolean;
}

/** The configurations, in run order: a-d are issue #17's (the default run); e and f, run only
 * when named, take config c apart: every policy on SQLite, then on Postgres with the limits
 * counted in the process, so c's cost splits into Postgres's and Redis's (f against c is the
 * most that limits kept out of Redis could buy). */
export const SCALE_CONFIGS: readonly ScaleConfig[] = [
  {
    id: "a",
    label: "1 worker, SQLite, no policy",
    workers: 1,
    store: "sqlite",
    redis: false,
    policied: false,
  },
  {
    id: "b",
    label: "2 workers, SQLite, no policy",
    workers: 2,
    store: "sqlite",
    redis: false,
    policied: false,
  },
  {
    id: "c",
    label: "1 worker, Postgres + Redis, all policies",
    workers: 1,
    store: "postgres",
    redis: true,
    policied: true,
  },
  {
    id: "d",
    label: "2 workers, Postgres + Redis, all policies",
    workers: 2,
    store: "postgres",
    redis: true,
    policied: true,
  },
  {
    id: "e",
    label: "1 worker, SQLite, all policies",
    workers: 1,
    store: "sqlite",
    redis: false,
    policied: true,
  },
  {
    id: "f",
    label: "1 worker, Postgres, all policies, limits in the process",
    workers: 1,
    store: "postgres",
    redis: false,
    policied: true,
  },
];

/** The configurations run when `--configs` names none. */
const DEFAULT_CONFIGS = ["a", "b", "c", "d"];

/** The passthrough scenarios (`../scenarios.ts`) measured in every configuration. */
export const SCALE_SCENARIOS = ["chat-stream", "chat-json"] as const;

/** Slices each target's measurement is cut into, taking turns with the others' (as
 * `../measure.ts` does). */
export const SCALE_SLICES = 5;

/** The scale run's settings. */
export interface ScaleSettings {
  /** Seconds each target (gateway, proxy, direct) is measured per scenario, in all. */
  seconds: number;
  /** That time in slices: {@link SCALE_SLICES} wrk runs of `sliceSeconds` (wrk's whole seconds,
   * at least 1), so `slices × sliceSeconds` is `seconds` rounded to a multiple of the slices. */
  slices: number;
  sliceSeconds: number;
  /** Seconds of the wrk warm-up run of the gateway before each measurement (direct and the
   * proxy, already warm from earlier ones, get at most 1). */
  warmupSeconds: number;
  /** wrk connections (the concurrency) and threads. */
  connections: number;
  threads: number;
  configs: ScaleConfig[];
  /** Rows of the ledger-rate measurement per store (0: not measured). */
  ledgerRows: number;
  /** Where fresh databases are created. */
  postgresUrl: string;
  redisUrl: string;
  /** `--cpu-profile=PREFIX`: each configuration's gateway runs with `--inspect` and its CPU
   * profile over the measured runs goes to `PREFIX-<config>.cpuprofile`, its hot spots printed
   * (the first thread only: with workers, the others go unseen). */
  cpuProfile: string | null;
}

/** Reads the scale run's settings from the bench's arguments; throws a message for a bad one. */
export function parseScaleSettings(args: readonly string[]): ScaleSettings {
  checkOptions(args, [
    "only",
    "seconds",
    "warmup",
    "configs",
    "ledger-rows",
    "postgres",
    "redis",
    "cpu-profile",
  ], "deno task bench --only=scale");
  const value = (name: string) =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const seconds = Number(value("seconds") ?? 10);
  if (!(seconds >= 1) || !Number.isInteger(seconds)) {
    throw new Error("--seconds must be a whole number of seconds, at least 1 (wrk's -d)");
  }
  const warmupSeconds = Number(value("warmup") ?? 3);
  if (!(warmupSeconds >= 0) || !Number.isInteger(warmupSeconds)) {
    throw new Error("--warmup must be a whole number of seconds, 0 or more");
  }
  const ids = value("configs")?.split(",") ?? DEFAULT_CONFIGS;
  const unknown = ids.filter((id) => !SCALE_CONFIGS.some((c) => c.id === id));
  if (unknown.length > 0) {
    const known = SCALE_CONFIGS.map((c) => c.id).join(", ");
    throw new Error(`unknown configuration ${unknown.join(", ")}; known: ${known}`);
  }
  const ledgerRows = Number(value("ledger-rows") ?? 50_000);
  if (!Number.isInteger(ledgerRows) || ledgerRows < 0) {
    throw new Error("--ledger-rows must be a whole number, 0 or more");
  }
  return {
    seconds,
    slices: SCALE_SLICES,
    sliceSeconds: Math.max(1, Math.round(seconds / SCALE_SLICES)),
    warmupSeconds,
    connections: 32,
    threads: 2,
    configs: SCALE_CONFIGS.filter((c) => ids.includes(c.id)),
    ledgerRows,
    postgresUrl: value("postgres") ?? DEFAULT_POSTGRES_ADMIN_URL,
    redisUrl: value("redis") ?? "redis://127.0.0.1:6379",
    cpuProfile: value("cpu-profile") ?? null,
  };
}
