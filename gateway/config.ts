/**
 * Gateway settings read from the environment once at start.
 * @module
 */
import { readDocsPort } from "../docs/config.ts";

/** Everything the request path needs to know about its deployment. */
export interface GatewayConfig {
  /** Largest accepted request body in bytes (`GATEHOUSE_MAX_BODY`, default 32 MiB). */
  maxBody: number;
  /** The root address clients use (`PUBLIC_BASE_URL`), shown by `GET /`. */
  publicBaseUrl: string | null;
  /** The docs host address (`DOCS_URL`). */
  docsUrl: string | null;
  /** The docs listener's port (`DOCS_PORT`, default 8081), or null when it is off; `GET /` names
   * the docs host on it when `DOCS_URL` is unset. */
  docsPort: number | null;
  /** Per-token delay of the mock provider in ms (`GATEHOUSE_MOCK_DELAY_MS`). */
  mockDelayMs: number;
  /** Upstream request timeout until response headers, ms (`GATEHOUSE_UPSTREAM_TIMEOUT_MS`). */
  upstreamTimeoutMs: number;
  /** How long a streamed upstream body may send nothing before the gateway ends it with the
   * client protocol's terminal error, ms (`GATEHOUSE_STREAM_IDLE_TIMEOUT_MS`). */
  streamIdleTimeoutMs: number;
  /** How upstream calls are made (`GATEHOUSE_UPSTREAM_CLIENT`): the gateway's own pooled
   * HTTP/1.1 client, or the runtime's `fetch` (the default when a proxy variable is set, since
   * only `fetch` honours `HTTPS_PROXY`). */
  upstreamClient: UpstreamClientKind;
  /** Extra attempts per model after the first, on a retryable failure (`GATEHOUSE_RETRIES`,
   * default 2; 0 = none). */
  retries: number;
  /** How long opening a new upstream connection (TCP connect and TLS handshake) may take, ms
   * (`GATEHOUSE_CONNECT_TIMEOUT_MS`, default 10000). Only the pooled HTTP/1.1 client sees the
   * connect phase; with the runtime's `fetch` only the header timeout applies. */
  connectTimeoutMs: number;
  /** How long a deployment rests after {@link GatewayConfig.cooldownFailures} retryable failures
   * in a row, ms (`GATEHOUSE_COOLDOWN_SECONDS`, default 30 seconds). */
  cooldownMs: number;
  /** Retryable failures in a row that cool a deployment down (`GATEHOUSE_COOLDOWN_FAILURES`,
   * default 3). */
  cooldownFailures: number;
  /** On SIGTERM or SIGINT, how long requests in flight may run to their end, ms
   * (`GATEHOUSE_DRAIN_SECONDS`, default 30 seconds). */
  drainMs: number;
}

/** The upstream client choices. */
export type UpstreamClientKind = "http1" | "fetch";

/** The proxy variables Deno's `fetch` honours. */
const PROXY_VARIABLES = [
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "ALL_PROXY",
  "all_proxy",
];

const MIB = 1024 * 1024;

/** Parses a size such as `32MiB`, `500kb`, `1048576`. */
export function parseSize(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?\s*$/i.exec(text);
  if (!match) return null;
  const unit = (match[2] ?? "b").toLowerCase();
  const factor = unit === "b"
    ? 1
    : unit.startsWith("k")
    ? 1024
    : unit.startsWith("m")
    ? MIB
    : 1024 * MIB;
  return Math.floor(Number(match[1]) * factor);
}

/** Reads one variable from the environment. */
export type Env = (name: string) => string | undefined;

/** The variable as a non-negative (or positive) number, `fallback` when unset or empty; throws an
 * Error naming the variable otherwise. */
function readNumber(env: Env, name: string, fallback: number, positive = false): number {
  const raw = env(name);
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (positive && value === 0)) {
    throw new Error(`${name}="${raw}" is not a ${positive ? "positive" : "non-negative"} number.`);
  }
  return value;
}

/** The variable as a non-negative (or positive) integer written in digits, `fallback` when unset
 * or empty; throws an Error naming the variable otherwise. */
export function readInteger(env: Env, name: string, fallback: number, positive = false): number {
  const raw = env(name);
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || (positive && value === 0)) {
    const kind = positive ? "positive" : "non-negative";
    throw new Error(`${name}="${raw}" is not a ${kind} integer (a whole number such as 3).`);
  }
  return value;
}

/** Reads the config; throws an Error naming the variable on a bad value. */
export function readGatewayConfig(env: (name: string) => string | undefined): GatewayConfig {
  const size = env("GATEHOUSE_MAX_BODY");
  const maxBody = size === undefined ? 32 * MIB : parseSize(size);
  if (maxBody === null || maxBody <= 0) {
    throw new Error(`GATEHOUSE_MAX_BODY="${size}" is not a size: use bytes or a unit, e.g. 32MiB.`);
  }
  const number = (name: string, fallback: number) => readNumber(env, name, fallback);
  const url = (name: string) => {
    const raw = env(name);
    if (!raw) return null;
    try {
      return new URL(raw).href.replace(/\/+$/, "");
    } catch {
      throw new Error(`${name}="${raw}" is not a URL.`);
    }
  };
  const client = env("GATEHOUSE_UPSTREAM_CLIENT");
  if (client !== undefined && client !== "" && client !== "http1" && client !== "fetch") {
    throw new Error(`GATEHOUSE_UPSTREAM_CLIENT="${client}" is not one of: http1, fetch.`);
  }
  const proxied = PROXY_VARIABLES.some((name) => Boolean(env(name)));
  return {
    maxBody,
    publicBaseUrl: url("PUBLIC_BASE_URL"),
    docsUrl: url("DOCS_URL"),
    docsPort: readDocsPort(env),
    mockDelayMs: number("GATEHOUSE_MOCK_DELAY_MS", 0),
    upstreamTimeoutMs: number("GATEHOUSE_UPSTREAM_TIMEOUT_MS", 600_000),
    // Five minutes: providers send keep-alive events (Anthropic pings) or progress well within
    // it, but a reasoning model may think for minutes without a word on some wires.
    streamIdleTimeoutMs: number("GATEHOUSE_STREAM_IDLE_TIMEOUT_MS", 300_000),
    upstreamClient: client === "http1" || client === "fetch" ? client : proxied ? "fetch" : "http1",
    retries: readInteger(env, "GATEHOUSE_RETRIES", 2),
    // 0 would fail every new connection at once.
    connectTimeoutMs: readNumber(env, "GATEHOUSE_CONNECT_TIMEOUT_MS", 10_000, true),
    cooldownMs: number("GATEHOUSE_COOLDOWN_SECONDS", 30) * 1000,
    cooldownFailures: readInteger(env, "GATEHOUSE_COOLDOWN_FAILURES", 3, true),
    drainMs: number("GATEHOUSE_DRAIN_SECONDS", 30) * 1000,
  };
}
