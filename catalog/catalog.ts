/**
 * The catalog the gateway consults per request: which ids exist, what they resolve to (alias,
 * concrete entry or pattern), which provider serves them and whether its credential is set.
 * @module
 */
import { CatalogError } from "./catalog_error.ts";
import { semanticIssues } from "./check_semantics.ts";
import { modelsByName } from "./check_fallbacks.ts";
import {
  demoDeployment,
  demoUpstreamId,
  forPatternId,
  missingFor,
  modelDeployments,
  patternDeployment,
  servingDeployments,
} from "./deployments.ts";
import type { EnvReader, ResolvedDeployment, ResolvedModel, ResolvedProvider } from "./resolved.ts";
import { MOCK_PROVIDER, resolveProvider } from "./resolve_provider.ts";
import type { CatalogConfig, ModelEntry, PatternEntry, SetupDefaults } from "./schema.ts";

export type { EnvReader, ResolvedDeployment, ResolvedModel, ResolvedProvider } from "./resolved.ts";

/** How a catalog is built. */
export interface CatalogOptions {
  /** Serve every model and pattern from the built-in `mock` provider; no credentials needed. */
  demo?: boolean;
  /** Names the config in error messages (the file path); defaults to `catalog`. */
  source?: string;
}

/** One deployment of a model or pattern, as `GET /admin/v1/deployments` and `/readyz` see it. */
export interface CatalogDeployment {
  /** The catalog id it serves, or null for a pattern's. */
  model: string | null;
  /** The pattern it serves, or null for a model's. */
  pattern: string | null;
  /** A pattern's deployment carries the pattern text as its upstream id. */
  deployment: ResolvedDeployment;
  /** Whether the model is in `listed()` (the pattern in `patterns()`). */
  listed: boolean;
}

/** A validated catalog bound to the environment's credentials and base URL overrides. */
export class Catalog {
  /** True when every model is served by the mock provider. */
  readonly demo: boolean;
  /** The ids client set-up scripts write. */
  readonly setupDefaults: SetupDefaults;
  readonly #models: readonly ModelEntry[];
  readonly #patterns: readonly PatternEntry[];
  /** Patterns ordered longest prefix first: the first match is the most specific. */
  readonly #patternsBySpecificity: readonly PatternEntry[];
  readonly #byName: ReadonlyMap<string, ModelEntry>;
  readonly #providers = new Map<string, ResolvedProvider>();
  /** What routing may pick per model and pattern (`servingDeployments`), never empty. */
  readonly #serving = new Map<ModelEntry | PatternEntry, readonly ResolvedDeployment[]>();

  /** Builds a catalog from a config that passed `parseCatalogConfig`. Reads the environment
   * once, here. Throws `CatalogError` for cross-field problems or a malformed override URL. */
  constructor(config: CatalogConfig, env: EnvReader, options: CatalogOptions = {}) {
    const frozen = deepFreeze(structuredClone(config));
    const issues = semanticIssues(frozen);
    if (issues.length > 0) throw new CatalogError(options.source ?? "catalog", issues);
    this.demo = options.demo ?? false;
    this.setupDefaults = frozen.setup_defaults;
    this.#models = frozen.models;
    this.#patterns = frozen.patterns;
    this.#patternsBySpecificity = [...frozen.patterns].sort((a, b) =>
      b.pattern.length - a.pattern.length
    );
    this.#byName = modelsByName(frozen.models);
    if (!this.demo) {
      for (const [name, provider] of Object.entries(frozen.providers)) {
        this.#providers.set(name, resolveProvider(name, provider, env));
      }
    }
    for (const item of [...frozen.models, ...frozen.patterns]) {
      this.#serving.set(item, this.#servingOf(item));
    }
  }

  /** A demo catalog: every model and pattern served by the `mock` provider. */
  static demo(config: CatalogConfig, options: Omit<CatalogOptions, "demo"> = {}): Catalog {
    return new Catalog(config, () => undefined, { ...options, demo: true });
  }

  /** Resolves a requested id: a concrete id or alias first, then the longest matching
   * pattern (the id is then forwarded unchanged). Null when nothing matches. The model is
   * bound to its first deployment; only deployments whose credential is set are included,
   * unless none has one. */
  resolve(id: string): ResolvedModel | null {
    const entry = this.lookup(id);
    if (entry !== null) {
      const deployments = this.#deploymentsOf(entry);
      const first = deployments[0]!;
      return {
        requested: id,
        id: entry.id,
        upstreamId: first.upstreamId,
        provider: first.provider,
        deployments,
        deployment: first,
        fallbacks: entry.fallbacks,
        fallbackOnContextOverflow: entry.fallback_on_context_overflow,
        endpointTypes: entry.endpoint_types,
        openaiWire: entry.openai_wire,
        pricing: entry.pricing,
        contextWindow: entry.context_window,
        maxOutputTokens: entry.max_output_tokens,
        entry,
        pattern: null,
      };
    }
    const pattern = this.#patternsBySpecificity.find((p) => id.startsWith(p.pattern.slice(0, -1)));
    if (pattern === undefined) return null;
    const deployment = forPatternId(this.#deploymentsOf(pattern)[0]!, id);
    return {
      requested: id,
      id,
      upstreamId: id,
      provider: deployment.provider,
      deployments: Object.freeze([deployment]),
      deployment,
      fallbacks: [],
      fallbackOnContextOverflow: false,
      endpointTypes: pattern.endpoint_types,
      openaiWire: pattern.openai_wire,
      pricing: pattern.pricing,
      entry: null,
      pattern,
    };
  }

  /** The catalog entry for a concrete id or alias (patterns are not consulted). */
  lookup(id: string): ModelEntry | null {
    return this.#byName.get(id) ?? null;
  }

  /** The provider serving an entry or pattern: its first deployment's among those whose
   * credential is set (the first deployment's when none is; the mock provider in demo mode). */
  providerOf(item: ModelEntry | PatternEntry): ResolvedProvider {
    return this.#deploymentsOf(item)[0]!.provider;
  }

  /** The variable to set when no deployment of the model has its credential: the bound
   * deployment's. Null when at least one deployment can be called. */
  missingCredential(model: ResolvedModel): string | null {
    const usable = model.deployments.some((deployment) => missingFor(deployment.provider) === null);
    return usable ? null : missingFor(model.provider);
  }

  /** Every model entry, hidden or not, in config order. */
  models(): ModelEntry[] {
    return [...this.#models];
  }

  /** The models `GET /v1/models` shows: not hidden, at least one deployment usable. Config
   * order. */
  listed(): ModelEntry[] {
    return this.#models.filter((model) => !model.flags.hidden && this.#usable(model));
  }

  /** The patterns `GET /v1/models` describes: those whose provider is usable. Config order. */
  patterns(): PatternEntry[] {
    return this.#patterns.filter((pattern) => this.#usable(pattern));
  }

  /** True when at least one model or pattern can be served with the credentials present. */
  hasAnyCredentials(): boolean {
    return [...this.#models, ...this.#patterns].some((item) => this.#usable(item));
  }

  /** Every deployment routing may pick, of every model then every pattern, in config order:
   * per model those whose credential is set, or all of them when none has one. */
  deployments(): CatalogDeployment[] {
    const listed = new Set<ModelEntry | PatternEntry>([...this.listed(), ...this.patterns()]);
    return [
      ...this.#models.flatMap((model) =>
        this.#deploymentsOf(model).map((deployment) => ({
          model: model.id,
          pattern: null,
          deployment,
          listed: listed.has(model),
        }))
      ),
      ...this.#patterns.flatMap((pattern) =>
        this.#deploymentsOf(pattern).map((deployment) => ({
          model: null,
          pattern: pattern.pattern,
          deployment,
          listed: listed.has(pattern),
        }))
      ),
    ];
  }

  /** The providers in use: the configured ones, or only `mock` in demo mode. */
  providers(): ResolvedProvider[] {
    return this.demo ? [MOCK_PROVIDER] : [...this.#providers.values()];
  }

  #servingOf(item: ModelEntry | PatternEntry): readonly ResolvedDeployment[] {
    if ("pattern" in item) {
      return Object.freeze([
        this.demo
          ? demoDeployment(item.pattern, item.pattern)
          : patternDeployment(item, this.#provider(item.provider)),
      ]);
    }
    if (this.demo) return Object.freeze([demoDeployment(item.id, demoUpstreamId(item))]);
    return servingDeployments(modelDeployments(item, (name) => this.#provider(name)));
  }

  #provider(name: string): ResolvedProvider {
    const provider = this.#providers.get(name);
    if (provider === undefined) throw new Error(`provider "${name}" missing after validation`);
    return provider;
  }

  #deploymentsOf(item: ModelEntry | PatternEntry): readonly ResolvedDeployment[] {
    const deployments = this.#serving.get(item);
    if (deployments === undefined) throw new Error("a catalog item not in this catalog");
    return deployments;
  }

  #usable(item: ModelEntry | PatternEntry): boolean {
    return this.#deploymentsOf(item).some((d) => missingFor(d.provider) === null);
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
