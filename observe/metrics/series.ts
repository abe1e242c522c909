/**
 * Every series gatehouse exposes, on one instance's own registry (never prom-client's global
 * one: tests build many gateways in one process). Names follow the Prometheus conventions
 * (`gatehouse_` prefix, `_total`, `_seconds`, `_usd`); labels are bounded (routes, catalog
 * models and deployments, providers, outcomes, status classes, and the key's name only when
 * `GATEHOUSE_METRICS_KEY_LABELS=1`).
 * @module
 */
import client from "prom-client";

/** Request and upstream-attempt durations: LLM answers run from milliseconds to minutes. */
export const DURATION_BUCKETS = [
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30,
  60,
  120,
  300,
];
/** Gatehouse's own time per request: from 50 µs, so that the overhead is resolved. */
export const OVERHEAD_BUCKETS = [
  0.00005,
  0.0001,
  0.00025,
  0.0005,
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
];
/** Time to the first byte of a streamed answer. */
export const TTFT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The token counts of `gatehouse_tokens_total`'s `type` label. */
export const TOKEN_TYPES = ["input", "output", "cached", "reasoning", "cache_write"] as const;

/** The gauges read at scrape time. */
export type ScrapeGauge =
  | "inFlight"
  | "streamsOpen"
  | "deploymentState"
  | "limitsReady"
  | "budgetRemaining"
  | "budgetLimit";

/** What a scrape-time gauge runs before it is read (set by `scrape_gauges.ts`). */
export type Collectors = Partial<Record<ScrapeGauge, () => void | Promise<void>>>;

/** The series of one registry. */
export interface Series {
  registry: client.Registry;
  /** Whether key names are labels (`GATEHOUSE_METRICS_KEY_LABELS=1`): the request counters'
   * `key`, the budget gauges' `name`. */
  keyLabels: boolean;
  /** The scrape-time gauges' callbacks; a gauge without one keeps what was set. */
  collectors: Collectors;
  requests: client.Counter;
  duration: client.Histogram;
  overhead: client.Histogram;
  ttft: client.Histogram;
  attempts: client.Counter;
  attemptDuration: client.Histogram;
  retries: client.Counter;
  fallbacks: client.Counter;
  tokens: client.Counter;
  cost: client.Counter;
  limitRejections: client.Counter;
  inFlight: client.Gauge;
  streamsOpen: client.Gauge;
  deploymentState: client.Gauge;
  limitsReady: client.Gauge;
  budgetRemaining: client.Gauge;
  budgetLimit: client.Gauge;
}

/** Builds the series on a new registry; `keyLabels` adds the `key` label to the request
 * counters (requests, tokens, cost, limit rejections; never to a histogram). */
export function createSeries(keyLabels: boolean): Series {
  const registry = new client.Registry();
  const registers = [registry];
  const key = keyLabels ? ["key"] : [];
  const counter = (name: string, help: string, labelNames: string[]) =>
    new client.Counter({ name, help, labelNames, registers });
  const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
    new client.Histogram({ name, help, labelNames, buckets, registers });
  // Gauges read at scrape: their collect callbacks are set by `scrape_gauges.ts`. A gauge every
  // worker reads from the same store is not summed across workers (`min`: the freshest figure
  // of a spend that only grows within its period); a per-process one is.
  const collectors: Collectors = {};
  const gauge = (
    name: string,
    help: string,
    labelNames: string[],
    aggregator: client.Aggregator = "sum",
    collector?: ScrapeGauge,
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames,
      registers,
      aggregator,
      ...(collector === undefined ? {} : { collect: () => collectors[collector]?.() }),
    });
  const request = ["route", "model", "served_model", "provider"];
  // A budget is named by its key's or team's id; the key's name only with the flag.
  const budget = keyLabels ? ["scope", "id", "name", "period"] : ["scope", "id", "period"];
  return {
    registry,
    keyLabels,
    collectors,
    requests: counter(
      "gatehouse_requests_total",
      "Model requests settled, by route, requested and served model, provider, outcome and " +
        "status class.",
      [...request, "outcome", "status_class", ...key],
    ),
    duration: histogram(
      "gatehouse_request_duration_seconds",
      "Model request duration, from arrival to settle (a stream: to its end).",
      ["route", "model", "provider", "status_class"],
      DURATION_BUCKETS,
    ),
    overhead: histogram(
      "gatehouse_gateway_overhead_seconds",
      "Gatehouse's own time per request that reached an upstream: the time to the first byte " +
        "minus the upstream wait and the backoff between attempts.",
      ["route", "model", "provider"],
      OVERHEAD_BUCKETS,
    ),
    ttft: histogram(
      "gatehouse_time_to_first_token_seconds",
      "Time from arrival to the first byte of a streamed answer.",
      ["route", "model", "provider"],
      TTFT_BUCKETS,
    ),
    attempts: counter(
      "gatehouse_upstream_attempts_total",
      "Upstream calls, by deployment and result (ok, or why the attempt stage gave up on it).",
      ["provider", "deployment", "model", "result", "status_class"],
    ),
    attemptDuration: histogram(
      "gatehouse_upstream_attempt_duration_seconds",
      "Upstream call duration, from the call to its response headers or its failure.",
      ["provider", "deployment", "result"],
      DURATION_BUCKETS,
    ),
    retries: counter(
      "gatehouse_retries_total",
      "Upstream calls after a request's first one, on the model it asked for.",
      ["model", "deployment"],
    ),
    fallbacks: counter(
      "gatehouse_fallbacks_total",
      "Upstream calls on a fallback model (another model than the one the request asked for).",
      ["model", "fallback_model", "deployment"],
    ),
    tokens: counter(
      "gatehouse_tokens_total",
      "Tokens billed, by type: input, output, and the parts of them that were cached input, " +
        "reasoning output and cache writes (so do not sum the types).",
      [...request, "type", ...key],
    ),
    cost: counter(
      "gatehouse_cost_usd_total",
      "US dollars billed from the catalog prices.",
      [...request, ...key],
    ),
    limitRejections: counter(
      "gatehouse_limit_rejections_total",
      "Model requests refused, or streams ended, by a key's or team's policy, by kind.",
      ["kind", "route", "model", ...key],
    ),
    inFlight: gauge(
      "gatehouse_requests_in_flight",
      "Model requests running now.",
      [],
      "sum",
      "inFlight",
    ),
    streamsOpen: gauge(
      "gatehouse_streams_open",
      "Streamed answers being delivered now.",
      [],
      "sum",
      "streamsOpen",
    ),
    deploymentState: gauge(
      "gatehouse_deployment_state",
      "Each deployment's breaker: 1 for the state it is in (healthy, cooling, probing); with " +
        "workers, how many of the process's workers see it in that state.",
      ["deployment", "model", "provider", "state"],
      "sum",
      "deploymentState",
    ),
    limitsReady: gauge(
      "gatehouse_limits_ready",
      "1 while limits can be counted (0: Redis unreachable with " +
        "GATEHOUSE_LIMITS_ON_REDIS_DOWN=reject); with workers, how many are ready.",
      ["backend"],
      "sum",
      "limitsReady",
    ),
    budgetRemaining: gauge(
      "gatehouse_budget_remaining_usd",
      "US dollars left in the current period of each key's and team's budget (settled spend " +
        "from the ledger; read at most every few seconds).",
      budget,
      "min",
      "budgetRemaining",
    ),
    budgetLimit: gauge(
      "gatehouse_budget_usd",
      "Each key's and team's budget per period, US dollars.",
      budget,
      "min",
      "budgetLimit",
    ),
  };
}
