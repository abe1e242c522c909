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

/** A requested model id resolved to where and how it is served. */
export interface ResolvedModel {
  /** The id the client sent. */
  requested: string;
  /** The public id after alias resolution (the requested id for pattern matches). */
  id: string;
  /** The id sent upstream (unchanged for pattern matches). */
  upstreamId: string;
  provider: ResolvedProvider;
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
