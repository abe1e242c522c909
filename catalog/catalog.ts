/**
 * The catalog the gateway consults per request: which ids exist, what they resolve to (alias,
 * concrete entry or pattern), which provider serves them and whether its credential is set.
 * @module
 */
import { CatalogError } from "./catalog_error.ts";
import { semanticIssues } from "./check_semantics.ts";
import type { EnvReader, ResolvedModel, ResolvedProvider } from "./resolved.ts";
import { MOCK_PROVIDER, resolveProvider } from "./resolve_provider.ts";
import type { CatalogConfig, ModelEntry, PatternEntry, SetupDefaults } from "./schema.ts";

export type { EnvReader, ResolvedModel, ResolvedProvider } from "./resolved.ts";

/** How a catalog is built. */
export interface CatalogOptions {
  /** Serve every model and pattern from the built-in `mock` provider; no credentials needed. */
  demo?: boolean;
  /** Names the config in error messages (the file path); defaults to `catalog`. */
  source?: string;
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
  readonly #byName = new Map<string, ModelEntry>();
  readonly #providers = new Map<string, ResolvedProvider>();

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
    for (const model of frozen.models) {
      this.#byName.set(model.id, model);
      for (const alias of model.aliases) this.#byName.set(alias, model);
    }
    if (this.demo) return;
    for (const [name, provider] of Object.entries(frozen.providers)) {
      this.#providers.set(name, resolveProvider(name, provider, env));
    }
  }

  /** A demo catalog: every model and pattern served by the `mock` provider. */
  static demo(config: CatalogConfig, options: Omit<CatalogOptions, "demo"> = {}): Catalog {
    return new Catalog(config, () => undefined, { ...options, demo: true });
  }

  /** Resolves a requested id: a concrete id or alias first, then the longest matching
   * pattern (the id is then forwarded unchanged). Null when nothing matches. */
  resolve(id: string): ResolvedModel | null {
    const entry = this.lookup(id);
    if (entry !== null) {
      return {
        requested: id,
        id: entry.id,
        upstreamId: entry.upstream_id ?? entry.id,
        provider: this.providerOf(entry),
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
    return {
      requested: id,
      id,
      upstreamId: id,
      provider: this.providerOf(pattern),
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

  /** The provider serving an entry or pattern (the mock provider in demo mode). */
  providerOf(item: ModelEntry | PatternEntry): ResolvedProvider {
    if (this.demo) return MOCK_PROVIDER;
    const provider = this.#providers.get(item.provider);
    if (provider === undefined) {
      throw new Error(`provider "${item.provider}" missing after validation`);
    }
    return provider;
  }

  /** The variable to set when the model's provider needs a credential that is unset. */
  missingCredential(model: ResolvedModel): string | null {
    return missingFor(model.provider);
  }

  /** Every model entry, hidden or not, in config order. */
  models(): ModelEntry[] {
    return [...this.#models];
  }

  /** The models `GET /v1/models` shows: not hidden, provider usable. Config order. */
  listed(): ModelEntry[] {
    return this.#models.filter((model) =>
      !model.flags.hidden && missingFor(this.providerOf(model)) === null
    );
  }

  /** The patterns `GET /v1/models` describes: those whose provider is usable. Config order. */
  patterns(): PatternEntry[] {
    return this.#patterns.filter((pattern) => missingFor(this.providerOf(pattern)) === null);
  }

  /** True when at least one model or pattern can be served with the credentials present. */
  hasAnyCredentials(): boolean {
    return [...this.#models, ...this.#patterns].some((item) =>
      missingFor(this.providerOf(item)) === null
    );
  }

  /** The providers in use: the configured ones, or only `mock` in demo mode. */
  providers(): ResolvedProvider[] {
    return this.demo ? [MOCK_PROVIDER] : [...this.#providers.values()];
  }
}

function missingFor(provider: ResolvedProvider): string | null {
  if (provider.kind === "mock" || provider.apiKeyEnv === undefined) return null;
  return provider.apiKey === undefined ? provider.apiKeyEnv : null;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
