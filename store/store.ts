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

/** One request in the ledger. Never holds a secret or a prompt. */
export interface UsageRecord {
  keyId: string;
  /** The model id the client asked for, after alias resolution. */
  model: string;
  /** Provider name from the catalog. */
  upstream: string;
  /** Client route, e.g. `/v1/messages`. */
  route: string;
  status: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  images: number;
  /** US dollars from the catalog prices. */
  cost: number;
  latencyMs: number;
  stream: boolean;
  /** Set when the client went away before the end. */
  aborted: boolean;
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
