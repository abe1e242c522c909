/**
 * The start-up settings that decide how gatehouse scales: where the store lives, whether limits
 * are shared through Redis, and how many workers serve the port.
 * @module
 */
import { type Env, readInteger } from "../gateway/config.ts";

/** The store used when neither `DATABASE_URL` nor `GATEHOUSE_DB` is set. */
export const DEFAULT_DB_PATH = "./data/gatehouse.db";

/** The most workers one process runs (more than cores only adds switching). */
export const MAX_WORKERS = 64;

/** What a limit does while Redis is unreachable (`GATEHOUSE_LIMITS_ON_REDIS_DOWN`). */
export type RedisDownMode = "local" | "reject";

/** How this process scales. */
export interface ClusterSettings {
  /** `DATABASE_URL`, else `GATEHOUSE_DB`, else {@link DEFAULT_DB_PATH}: a SQLite path,
   * `:memory:`, or a `postgres://` URL. */
  database: string;
  /** `REDIS_URL`, or null: limits then live in this process (or its coordinator). */
  redisUrl: string | null;
  /** `--workers N`, else `GATEHOUSE_WORKERS`, else 1. */
  workers: number;
  onRedisDown: RedisDownMode;
  /** `GATEHOUSE_DB_POOL`: the most Postgres connections this process opens, shared by its
   * workers (default 10; each worker gets an equal share, at least 2). */
  dbPool: number;
  /** `GATEHOUSE_MEMORY_TRIM_MB`: once a load has fallen away, memory is given back to the system
   * when the RSS is this far above its lowest since the last trim (default 64; 0: never).
   * `memory_trim.ts`. */
  memoryTrimMb: number;
}

/** Postgres connections per worker: an equal share of the process's pool, at least 2 (one
 * for a query while another writes the ledger). */
export function workerPoolSize(settings: Pick<ClusterSettings, "dbPool" | "workers">): number {
  return Math.max(2, Math.ceil(settings.dbPool / settings.workers));
}

/** The store location the gateway and the CLIs open: `DATABASE_URL`, else `GATEHOUSE_DB`, else
 * the default file. */
export function storeLocation(env: Env): string {
  const url = env("DATABASE_URL");
  if (url !== undefined && url !== "") return url;
  const path = env("GATEHOUSE_DB");
  return path !== undefined && path !== "" ? path : DEFAULT_DB_PATH;
}

/** `--workers N` or `--workers=N` from the command line, or undefined. */
function workersArgument(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--workers") return args[i + 1] ?? "";
    if (arg.startsWith("--workers=")) return arg.slice("--workers=".length);
  }
  return undefined;
}

/** Reads the settings; throws an Error naming the setting on a bad value. */
export function readClusterSettings(env: Env, args: readonly string[]): ClusterSettings {
  const flag = workersArgument(args);
  if (flag === "") {
    throw new Error('--workers="" is not a positive integer (a whole number such as 3).');
  }
  const workers = flag === undefined
    ? readInteger(env, "GATEHOUSE_WORKERS", 1, true)
    : readInteger((name) => name === "--workers" ? flag : undefined, "--workers", 1, true);
  if (workers > MAX_WORKERS) {
    throw new Error(`${workers} workers is more than the ${MAX_WORKERS} one process runs.`);
  }
  const database = storeLocation(env);
  if (workers > 1 && database.trim() === ":memory:") {
    throw new Error(
      "a :memory: store is private to one worker, so several workers would each keep their own " +
        "keys and ledger: use a SQLite file path or a postgres:// URL with --workers",
    );
  }
  const mode = env("GATEHOUSE_LIMITS_ON_REDIS_DOWN") || "local";
  if (mode !== "local" && mode !== "reject") {
    throw new Error(`GATEHOUSE_LIMITS_ON_REDIS_DOWN="${mode}" is not one of: local, reject.`);
  }
  const redis = env("REDIS_URL");
  if (redis !== undefined && redis !== "" && !/^rediss?:\/\//i.test(redis)) {
    throw new Error(`REDIS_URL must start with redis:// or rediss:// (got "${redactUrl(redis)}").`);
  }
  if (redis !== undefined && redis !== "" && !URL.canParse(redis)) {
    throw new Error(
      "REDIS_URL cannot be parsed (it is not shown: it may hold a password); check its host, " +
        "port and the percent-encoding of the password",
    );
  }
  return {
    database,
    redisUrl: redis === undefined || redis === "" ? null : redis,
    workers,
    onRedisDown: mode,
    dbPool: readInteger(env, "GATEHOUSE_DB_POOL", 10, true),
    memoryTrimMb: readInteger(env, "GATEHOUSE_MEMORY_TRIM_MB", 64),
  };
}

/** A URL as it may be shown: without user name, password or query (`?password=`); a string
 * that is not a URL is shown as `<not a URL>`, since it might hold a secret. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    parsed.hash = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "<not a URL>";
  }
}
