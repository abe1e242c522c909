/**
 * What a catalog lookup returns: a model with its provider made concrete (base URL after
 * overrides, credential read from the environment).
 * @module
 */
import type { EndpointType, ModelEntry, PatternEntry, Pricing, ProviderKind } from "./schema.ts";

/** Reads one environment variable (`Deno.env.get`, or a fixed map in tests). */
export type EnvReader = (name: string) => string | undefined;

/** A provider ready to be called. `toJSON` and inspection redact `apiKey`. */
export interface ResolvedProvider {
  /** The key under `providers` (`mock` in demo mode). */
  name: string;
  kind: ProviderKind;
  /** Upstream root without a trailing slash or `/v1`; empty for mock providers. */
  baseUrl: string;
  /** The credential, when the provider names a variable and it is set. */
  apiKey: string | undefined;
  /** The variable the credential comes from. */
  apiKeyEnv: string | undefined;
  /** Extra headers sent upstream with every request. */
  headers: Record<string, string>;
}

/** One way of serving a model: a provider entry and the id it is called with there. */
export interface ResolvedDeployment {
  /** Stable name for health and the admin view: `<model id or pattern>@<provider>`, with `#<n>`
   * (its index in `deployments`) appended when a model lists one provider more than once. */
  id: string;
  provider: ResolvedProvider;
  /** The id sent upstream on this deployment. */
  upstreamId: string;
  /** Relative share of traffic among the model's healthy deployments (default 1). */
  weight: number;
}

/** A requested model id resolved to where and how it is served. */
export interface ResolvedModel {
  /** The id the client sent. */
  requested: string;
  /** The public id after alias resolution (the requested id for pattern matches). */
  id: string;
  /** The id sent upstream (unchanged for pattern matches): the first deployment's, until the
   * attempt stage picks one (`gateway/attempt_plan.ts` makes a copy per deployment). */
  upstreamId: string;
  /** The first deployment's provider, until the attempt stage picks one. */
  provider: ResolvedProvider;
  /** Every deployment serving it, in config order (one for the `provider` form; one `mock` one
   * in demo mode). */
  deployments: readonly ResolvedDeployment[];
  /** The deployment this copy is bound to (the first, until the attempt stage picks one). */
  deployment: ResolvedDeployment;
  /** Catalog ids (or aliases) tried in order when every attempt on its own deployments failed. */
  fallbacks: readonly string[];
  /** A request too large for its context window may go to a fallback with a larger one. */
  fallbackOnContextOverflow: boolean;
  endpointTypes: EndpointType[];
  openaiWire: "chat" | "responses";
  pricing: Pricing;
  contextWindow?: number;
  maxOutputTokens?: number;
  /** The catalog entry, or null for an id matched by a pattern. */
  entry: ModelEntry | null;
  /** The pattern that matched, or null for a catalog entry. */
  pattern: PatternEntry | null;
}
