/**
 * The observer that turns each settled request and each upstream attempt into series updates.
 * The hot path is a Map lookup per request (and per attempt) for a bundle of label children
 * resolved once per label combination, then `inc` / `observe` calls on them that update the
 * stored series in place (`direct_children.ts`): nothing is formatted or allocated per request
 * beyond the lookup key.
 * @module
 */
import type { Observer, RequestObservation, SettledRequest } from "../observer.ts";
import type { AttemptRecord } from "../../store/store.ts";
import type { Series } from "./series.ts";
import {
  type DirectCounter as CounterChild,
  directCounter,
  type DirectHistogram as HistogramChild,
  directHistogram,
} from "./direct_children.ts";

/** The children one label combination of a settled request updates. */
interface RequestChildren {
  requests: CounterChild;
  duration: HistogramChild;
  overhead: HistogramChild;
  ttft: HistogramChild;
  input: CounterChild;
  output: CounterChild;
  cached: CounterChild;
  reasoning: CounterChild;
  cacheWrite: CounterChild;
  cost: CounterChild;
}

/** The children one attempt's label combination updates. */
interface AttemptChildren {
  attempts: CounterChild;
  duration: HistogramChild;
}

/** The kind of limit a refusal code (or a budget-cut stream) names, for
 * `gatehouse_limit_rejections_total`, when the refusal does not name its limit itself: rpm, tpm
 * and max_parallel share one code (`rate_limit_exceeded`, governance/refusals.ts) and are told
 * apart by `SettledRequest.limit`. An expired key is refused at authentication, before any
 * request is observed. */
export const LIMIT_KINDS: Readonly<Record<string, string>> = {
  model_not_allowed: "model_not_allowed",
  rate_limit_exceeded: "rate_limit",
  insufficient_quota: "budget",
  limits_unavailable: "limits_unavailable",
};

/** How many distinct model names outside the catalog's own ids a label takes before new ones
 * are counted as `other`: a pattern deployment, or a refused unknown model, would otherwise let
 * clients choose values. The catalog's ids never count against it: made-up names cannot push a
 * real model into `other`. */
export const MODEL_LABEL_CAP = 500;

/** Bounds a label's distinct values; `known` values always pass. */
export class LabelCap {
  readonly #seen = new Set<string>();
  readonly #known: ReadonlySet<string>;
  readonly #cap: number;

  constructor(cap: number, known: Iterable<string> = []) {
    this.#cap = cap;
    this.#known = new Set(known);
  }

  /** `value`, or `other` once the cap is reached by other values. */
  of(value: string): string {
    if (this.#known.has(value) || this.#seen.has(value)) return value;
    if (this.#seen.size >= this.#cap) return "other";
    this.#seen.add(value);
    return value;
  }
}

/** `2xx`, `4xx`, …; `none` when no status came (an attempt that never got an answer). */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "none";
}

/** Options of {@link metricsObserver}. */
export interface MetricsObserverOptions {
  /** Add the key's name as the `key` label (the series were built with it). */
  keyLabels: boolean;
  /** The catalog's model ids: always labelled as they are (see {@link MODEL_LABEL_CAP}). */
  models?: Iterable<string>;
}

/** The observer updating `series`. */
export function metricsObserver(series: Series, options: MetricsObserverOptions): Observer {
  const models = new LabelCap(MODEL_LABEL_CAP, options.models);
  const requestChildren = new Map<string, RequestChildren>();
  const attemptChildren = new Map<string, AttemptChildren>();
  const rejections = new Map<string, CounterChild>();
  const keyLabels = options.keyLabels;

  const requestChildrenOf = (
    route: string,
    model: string,
    served: string,
    provider: string,
    outcome: string,
    status: string,
    key: string,
  ): RequestChildren => {
    const id =
      `${route}\u0001${model}\u0001${served}\u0001${provider}\u0001${outcome}\u0001${status}\u0001${key}`;
    let children = requestChildren.get(id);
    if (children !== undefined) return children;
    const request = [route, model, served, provider];
    const keyed = keyLabels ? [key] : [];
    const tokens = (type: string) => directCounter(series.tokens, [...request, type, ...keyed]);
    children = {
      requests: directCounter(series.requests, [...request, outcome, status, ...keyed]),
      duration: directHistogram(series.duration, [route, model, provider, status]),
      overhead: directHistogram(series.overhead, [route, model, provider]),
      ttft: directHistogram(series.ttft, [route, model, provider]),
      input: tokens("input"),
      output: tokens("output"),
      cached: tokens("cached"),
      reasoning: tokens("reasoning"),
      cacheWrite: tokens("cache_write"),
      cost: directCounter(series.cost, [...request, ...keyed]),
    };
    requestChildren.set(id, children);
    return children;
  };

  const attempted = (record: AttemptRecord): void => {
    const model = models.of(record.model);
    const status = statusClass(record.status);
    const id = `${record.deployment}\u0001${record.result}\u0001${status}\u0001${model}`;
    let children = attemptChildren.get(id);
    if (children === undefined) {
      children = {
        attempts: directCounter(series.attempts, [
          record.provider,
          record.deployment,
          model,
          record.result,
          status,
        ]),
        duration: directHistogram(series.attemptDuration, [
          record.provider,
          record.deployment,
          record.result,
        ]),
      };
      attemptChildren.set(id, children);
    }
    children.attempts.inc();
    children.duration.observe(record.ms / 1000);
  };

  const rejected = (kind: string, route: string, model: string, key: string): void => {
    const id = `${kind}\u0001${route}\u0001${model}\u0001${key}`;
    let child = rejections.get(id);
    if (child === undefined) {
      child = directCounter(series.limitRejections, [
        kind,
        route,
        model,
        ...(keyLabels ? [key] : []),
      ]);
      rejections.set(id, child);
    }
    child.inc();
  };

  const settled = (request: SettledRequest): void => {
    const row = request.record;
    const model = models.of(row.model);
    const status = statusClass(row.status);
    const key = keyLabels ? request.key.name : "";
    const c = requestChildrenOf(
      row.route,
      model,
      models.of(row.servedModel),
      row.upstream,
      row.outcome,
      status,
      key,
    );
    c.requests.inc();
    c.duration.observe(request.durationMs / 1000);
    if (request.overheadMs !== null) c.overhead.observe(request.overheadMs / 1000);
    if (row.stream && request.firstByteMs !== null && status === "2xx") {
      c.ttft.observe(request.firstByteMs / 1000);
    }
    // A zero increment would still create the series: skip it.
    if (row.inputTokens > 0) c.input.inc(row.inputTokens);
    if (row.outputTokens > 0) c.output.inc(row.outputTokens);
    if (row.cachedTokens > 0) c.cached.inc(row.cachedTokens);
    if (row.reasoningTokens > 0) c.reasoning.inc(row.reasoningTokens);
    if (row.cacheWriteTokens > 0) c.cacheWrite.inc(row.cacheWriteTokens);
    if (row.cost > 0) c.cost.inc(row.cost);
    if (row.attempts > 1) retriesOf(row.model, row.attemptLog ?? []);
    const kind = row.outcome === "budget_cut"
      ? "budget_cut"
      : request.refusal === null
      ? undefined
      : request.limit ?? LIMIT_KINDS[request.refusal];
    if (kind !== undefined) rejected(kind, row.route, model, key);
  };

  // Rare (a request that needed more than one call): no children cache.
  const retriesOf = (requested: string, log: readonly AttemptRecord[]): void => {
    for (let i = 1; i < log.length; i++) {
      const attempt = log[i]!;
      if (attempt.model === requested) {
        series.retries.labels(models.of(requested), attempt.deployment).inc();
      } else {
        series.fallbacks.labels(models.of(requested), models.of(attempt.model), attempt.deployment)
          .inc();
      }
    }
  };

  const observation: RequestObservation = {
    attemptStarted: () => undefined,
    attemptEnded: attempted,
    settled,
  };
  // One stateless observation serves every request: it needs nothing from the start.
  return { begin: () => observation };
}
