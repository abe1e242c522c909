/**
 * The gauges read at scrape time (prom-client calls their `collect` before each exposition):
 * requests in flight and streams open, each deployment's breaker, whether limits can be counted,
 * and what is left of every key's and team's budget. Nothing here runs per request.
 * @module
 */
import type { Catalog } from "../../catalog/catalog.ts";
import type { DeploymentHealth, DeploymentState } from "../../gateway/health.ts";
import type { InFlight } from "../../gateway/in_flight.ts";
import type { LimitsState } from "../../governance/shared/create_limits.ts";
import { type BudgetPeriod, periodStart, type Policy } from "../../governance/policy.ts";
import type { Store } from "../../store/store.ts";
import type { Series } from "./series.ts";

/** How long a budget reading is reused: a scrape every second must not read the ledger each
 * time. */
export const BUDGET_CACHE_MS = 5_000;

const STATES: readonly DeploymentState[] = ["healthy", "cooling", "probing"];

/** What the scrape-time gauges read. */
export interface GaugeSources {
  catalog: Catalog;
  store: Store;
  /** Read at each scrape (a test may swap the breakers). */
  health: () => DeploymentHealth;
  inflight: InFlight;
  /** Where limits are counted; absent: in process, always ready (no gauge). */
  limits?: () => LimitsState;
  /** Unix ms; `Date.now` by default. */
  now?: () => number;
}

/** One budget's figure. */
export interface BudgetFigure {
  scope: "key" | "team";
  id: string;
  name: string;
  period: BudgetPeriod;
  budgetUsd: number;
  remainingUsd: number;
}

/** Sets the collect callbacks of the scrape-time gauges of `series`. */
export function collectGauges(series: Series, sources: GaugeSources): void {
  const { inflight } = sources;
  series.collectors.inFlight = () => series.inFlight.set(inflight.size);
  series.collectors.streamsOpen = () => series.streamsOpen.set(inflight.streamsOpen());
  const deployments = sources.catalog.deployments();
  series.collectors.deploymentState = () => {
    const health = sources.health();
    for (const d of deployments) {
      const id = d.deployment.id;
      const state = health.view(id).state;
      const model = d.model ?? d.pattern ?? "";
      for (const s of STATES) {
        series.deploymentState.set(
          { deployment: id, model, provider: d.deployment.provider.name, state: s },
          s === state ? 1 : 0,
        );
      }
    }
  };
  const limits = sources.limits;
  if (limits !== undefined) {
    series.collectors.limitsReady = () => {
      const state = limits();
      series.limitsReady.reset();
      // Only Redis down in `reject` mode refuses (as start_instance's readiness view says).
      const ready = state.shared || state.backend !== "redis";
      series.limitsReady.set({ backend: state.backend }, ready ? 1 : 0);
    };
  }
  // The registry reads its metrics concurrently: each budget gauge awaits the shared reading.
  const budgets = new BudgetReader(sources.store, sources.now ?? Date.now);
  const budgetGauge = (gauge: Series["budgetRemaining"], value: (f: BudgetFigure) => number) => {
    return async () => {
      const figures = await budgets.read();
      gauge.reset();
      for (const f of figures) {
        const labels = { scope: f.scope, id: f.id, period: f.period };
        gauge.set(series.keyLabels ? { ...labels, name: f.name } : labels, value(f));
      }
    };
  };
  series.collectors.budgetRemaining = budgetGauge(series.budgetRemaining, (f) => f.remainingUsd);
  series.collectors.budgetLimit = budgetGauge(series.budgetLimit, (f) => f.budgetUsd);
}

/** Every live key's and team's budget, read from the store at most every
 * {@link BUDGET_CACHE_MS}: one grouped ledger report per budget period in use. */
export class BudgetReader {
  readonly #store: Store;
  readonly #now: () => number;
  #cached: { at: number; figures: Promise<BudgetFigure[]> } | null = null;

  constructor(store: Store, now: () => number) {
    this.#store = store;
    this.#now = now;
  }

  /** The figures, from the cache while it is fresh (a failed read is not kept). */
  read(): Promise<BudgetFigure[]> {
    const now = this.#now();
    const cached = this.#cached;
    if (cached !== null && now - cached.at < BUDGET_CACHE_MS) return cached.figures;
    const figures = this.#read(now);
    this.#cached = { at: now, figures };
    figures.catch(() => {
      if (this.#cached?.figures === figures) this.#cached = null;
    });
    return figures;
  }

  async #read(now: number): Promise<BudgetFigure[]> {
    const [keys, teams] = await Promise.all([this.#store.listKeys(), this.#store.listTeams()]);
    const scopes: Array<{ scope: "key" | "team"; id: string; name: string; policy: Policy }> = [
      ...keys
        .filter((k) => k.revokedAt === null && (k.policy.expiresAt ?? Infinity) > now)
        .map((k) => ({ scope: "key" as const, id: k.id, name: k.name, policy: k.policy })),
      ...teams.map((t) => ({ scope: "team" as const, id: t.id, name: t.id, policy: t.policy })),
    ];
    const spends = new Map<string, Promise<Map<string, number>>>();
    const spendOf = (scope: "key" | "team", period: BudgetPeriod) => {
      const id = `${scope} ${period}`;
      let spend = spends.get(id);
      if (spend === undefined) {
        spend = this.#spendSince(scope, periodStart(period, now), now);
        spends.set(id, spend);
      }
      return spend;
    };
    const figures: BudgetFigure[] = [];
    for (const s of scopes) {
      const budgetUsd = s.policy.budgetUsd;
      if (budgetUsd === undefined) continue;
      const period = s.policy.budgetPeriod ?? "total";
      const spent = (await spendOf(s.scope, period)).get(s.id) ?? 0;
      figures.push({
        scope: s.scope,
        id: s.id,
        name: s.name,
        period,
        budgetUsd,
        remainingUsd: Math.max(0, budgetUsd - spent),
      });
    }
    return figures;
  }

  /** Spend since `start` per key id or per team id. */
  async #spendSince(
    scope: "key" | "team",
    start: number,
    now: number,
  ): Promise<Map<string, number>> {
    // A row is dated from its request's arrival: an end past now takes every settled one.
    const report = await this.#store.usageReport({ start, end: now + 86_400_000, groupBy: scope });
    return new Map((report.groups ?? []).map((g) => [g.key, g.cost]));
  }
}
