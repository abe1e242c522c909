/**
 * The bodies of `GET /v1/models` and `GET /v1/models/{id}`: the OpenAI shape by default, the
 * Anthropic shape (newest first, cursor paging) for requests that carry `anthropic-version`.
 * @module
 */
import { invalidRequest } from "../core/errors.ts";
import type { Catalog } from "./catalog.ts";
import type {
  AnthropicModelList,
  AnthropicModelObject,
  ModelPattern,
  OpenAIModelList,
  OpenAIModelObject,
} from "./listing_schema.ts";
import type { ResolvedProvider } from "./resolved.ts";
import type { ModelEntry, PatternEntry } from "./schema.ts";

/** Paging of the Anthropic-shaped list, as the Anthropic API pages (`limit`, `after_id`,
 * `before_id` query parameters). */
export interface AnthropicListOptions {
  /** Items per page, 1 to 1000; 20 when absent. */
  limit?: number;
  /** Return the page right after this id (an alias is accepted). */
  afterId?: string;
  /** Return the page right before this id (an alias is accepted). */
  beforeId?: string;
  /** Only models the caller may use. */
  allowed?: Allowed;
}

/** Which body shape a models request gets: Anthropic clients send `anthropic-version`. */
export function modelListShape(headers: Headers): "openai" | "anthropic" {
  return headers.has("anthropic-version") ? "anthropic" : "openai";
}

/** The `owned_by` of a provider's models. */
export function ownedBy(provider: ResolvedProvider): string {
  switch (provider.kind) {
    case "openai":
      return "openai";
    case "anthropic":
      return "anthropic";
    case "openai_compatible":
      return provider.name;
    case "mock":
      return "gatehouse-mock";
  }
}

/** Whether the caller may use a model id (or a pattern, by its pattern text): a key's policy
 * lists only what the key may call. */
export type Allowed = (id: string) => boolean;

const ANY: Allowed = () => true;

/** `GET /v1/models`, OpenAI shape: listed models, patterns beside them, set-up defaults. */
export function openaiModelList(catalog: Catalog, allowed: Allowed = ANY): OpenAIModelList {
  return {
    object: "list",
    data: catalog.listed().filter((entry) => allowed(entry.id)).map((entry) =>
      toOpenAIModel(catalog, entry)
    ),
    patterns: catalog.patterns().filter((pattern) => allowed(pattern.pattern)).map((pattern) =>
      patternObject(catalog, pattern)
    ),
    setup_defaults: { ...catalog.setupDefaults },
  };
}

/** `GET /v1/models/{id}`, OpenAI shape. An alias returns its canonical model; an id that is
 * not listed (unknown, hidden, pattern-matched, provider without credentials) returns null. */
export function openaiModelObject(
  catalog: Catalog,
  id: string,
  allowed: Allowed = ANY,
): OpenAIModelObject | null {
  const entry = listedEntry(catalog, id, allowed);
  return entry === null ? null : toOpenAIModel(catalog, entry);
}

/** `GET /v1/models`, Anthropic shape, paged like the Anthropic API. Throws a 400
 * `GatewayError` for an out-of-range limit, an unknown cursor, or both cursors at once. */
export function anthropicModelList(
  catalog: Catalog,
  options: AnthropicListOptions = {},
): AnthropicModelList {
  const limit = options.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw invalidRequest(`limit must be an integer from 1 to 1000, got ${limit}.`, "limit");
  }
  if (options.afterId !== undefined && options.beforeId !== undefined) {
    throw invalidRequest("Send after_id or before_id, not both.", "before_id");
  }
  const allowed = options.allowed ?? ANY;
  const all = newestFirst(catalog.listed().filter((entry) => allowed(entry.id)));
  let start = 0;
  let end = Math.min(limit, all.length);
  let hasMore = end < all.length;
  if (options.afterId !== undefined) {
    start = cursorIndex(catalog, all, options.afterId, "after_id") + 1;
    end = Math.min(start + limit, all.length);
    hasMore = end < all.length;
  } else if (options.beforeId !== undefined) {
    end = cursorIndex(catalog, all, options.beforeId, "before_id");
    start = Math.max(0, end - limit);
    hasMore = start > 0;
  }
  const data = all.slice(start, end).map(toAnthropicModel);
  return {
    data,
    has_more: hasMore,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  };
}

/** `GET /v1/models/{id}`, Anthropic shape; same rules as `openaiModelObject`. */
export function anthropicModelObject(
  catalog: Catalog,
  id: string,
  allowed: Allowed = ANY,
): AnthropicModelObject | null {
  const entry = listedEntry(catalog, id, allowed);
  return entry === null ? null : toAnthropicModel(entry);
}

function toOpenAIModel(catalog: Catalog, entry: ModelEntry): OpenAIModelObject {
  return {
    id: entry.id,
    object: "model",
    created: entry.created,
    owned_by: ownedBy(catalog.providerOf(entry)),
    display_name: entry.display_name ?? entry.id,
    supported_endpoint_types: [...entry.endpoint_types],
    context_window: entry.context_window ?? null,
    max_output_tokens: entry.max_output_tokens ?? null,
    input_modalities: [...entry.input_modalities],
    output_modalities: [...entry.output_modalities],
    pricing: { ...entry.pricing },
    aliases: [...entry.aliases],
    special_purpose: entry.flags.special_purpose,
  };
}

function patternObject(catalog: Catalog, pattern: PatternEntry): ModelPattern {
  return {
    pattern: pattern.pattern,
    owned_by: ownedBy(catalog.providerOf(pattern)),
    supported_endpoint_types: [...pattern.endpoint_types],
    description: pattern.description ?? null,
    pricing: { ...pattern.pricing },
  };
}

function toAnthropicModel(entry: ModelEntry): AnthropicModelObject {
  return {
    type: "model",
    id: entry.id,
    display_name: entry.display_name ?? entry.id,
    // Anthropic writes whole seconds: 2025-02-19T00:00:00Z.
    created_at: new Date(entry.created * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
}

function listedEntry(catalog: Catalog, id: string, allowed: Allowed): ModelEntry | null {
  const entry = catalog.lookup(id);
  return entry !== null && allowed(entry.id) && catalog.listed().includes(entry) ? entry : null;
}

/** Anthropic lists the most recently released models first; ties keep config order. */
function newestFirst(entries: readonly ModelEntry[]): ModelEntry[] {
  return [...entries].sort((a, b) => b.created - a.created);
}

function cursorIndex(
  catalog: Catalog,
  entries: readonly ModelEntry[],
  cursor: string,
  param: "after_id" | "before_id",
): number {
  const id = catalog.lookup(cursor)?.id ?? cursor;
  const index = entries.findIndex((entry) => entry.id === id);
  if (index === -1) {
    throw invalidRequest(
      `${param} "${cursor}" is not a listed model id; take ids from a previous page.`,
      param,
    );
  }
  return index;
}
