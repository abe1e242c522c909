/**
 * The store interface: API keys, the usage ledger and Responses chains. `sqlite/` implements it
 * for the embedded default; a Postgres implementation fills the same interface.
 * @module
 */

/** A stored API key, without its secret. */
export interface KeyRecord {
  id: string;
  name: string;
  /** The first characters of the key, safe to show (`gth_virhos43…`). */
  hint: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** How a request ended, as the ledger records it (ARCHITECTURE.md, "Outcomes"). */
export const OUTCOMES = [
  "ok",
  "upstream_error",
  "upstream_cut",
  "timeout",
  "client_disconnect",
  "rejected",
  "internal_error",
] as const;

/** One of {@link OUTCOMES}. */
export type Outcome = typeof OUTCOMES[number];

/** One request in the ledger. Never holds a secret or a prompt. */
export interface UsageRecord {
  /** The id the client was sent in `x-request-id`. */
  requestId: string;
  keyId: string;
  /** The model id the client asked for, after alias resolution (as sent when it did not
   * resolve). */
  model: string;
  /** The catalog model that served the request (differs from `model` after a fallback). */
  servedModel: string;
  /** Provider name from the catalog ("" when no provider was chosen). */
  upstream: string;
  /** The provider's own id for its answer, when it gave one. */
  upstreamId: string | null;
  /** Client route, e.g. `/v1/messages`. */
  route: string;
  /** The HTTP status the client got (499 when it left before any response). */
  status: number;
  outcome: Outcome;
  /** Upstream calls made (0 when refused before any). */
  attempts: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  images: number;
  /** US dollars from the catalog prices. */
  cost: number;
  latencyMs: number;
  /** Milliseconds from arrival to the first byte of the response, null when none was sent. */
  firstByteMs: number | null;
  stream: boolean;
  /** Unix milliseconds when the request arrived. */
  time: number;
}

/** Totals over a set of ledger records. */
export interface UsageTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  images: number;
  cost: number;
  /** Requests per outcome; every outcome is present. */
  outcomes: Record<Outcome, number>;
}

/** A usage query for one key over `[start, end)` (unix milliseconds). */
export interface UsageQuery {
  keyId: string;
  start: number;
  end: number;
  groupBy?: "model" | "day";
}

/** A usage report. `groups` is present when grouped; `key` is the model id or `YYYY-MM-DD`. */
export interface UsageReport {
  totals: UsageTotals;
  groups?: Array<{ key: string } & UsageTotals>;
}

/** A stored Responses API response, for `previous_response_id` chains. */
export interface StoredResponse {
  id: string;
  keyId: string;
  /** The internal-representation conversation up to and including this response, as JSON. */
  conversation: string;
  createdAt: number;
}

/** Everything gatehouse persists. Implementations must be safe for concurrent requests. */
export interface Store {
  /** Creates a key; returns the record and the full secret, which is never stored. */
  createKey(name: string): Promise<{ record: KeyRecord; key: string }>;
  listKeys(): Promise<KeyRecord[]>;
  /** Revokes by id; false when no such key. */
  revokeKey(id: string): Promise<boolean>;
  /** Verifies a presented key in constant time; the live record or null. */
  verifyKey(presented: string): Promise<KeyRecord | null>;
  countKeys(): Promise<number>;
  recordUsage(record: UsageRecord): Promise<void>;
  usageReport(query: UsageQuery): Promise<UsageReport>;
  saveResponse(response: StoredResponse): Promise<void>;
  /** The response if it exists and belongs to `keyId`. */
  loadResponse(id: string, keyId: string): Promise<StoredResponse | null>;
  close(): Promise<void>;
}
