/**
 * The store interface: API keys, the usage ledger and Responses chains. `sqlite/` implements it
 * for the embedded default; a Postgres implementation fills the same interface.
 * @module
 */

import type { Policy } from "../governance/policy.ts";

/** A stored API key, without its secret. */
export interface KeyRecord {
  id: string;
  name: string;
  /** The first characters of the key, safe to show (`gth_virhos43…`). */
  hint: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
  /** May call the admin routes (and every model route). */
  admin: boolean;
  /** The team the key belongs to, by id, or null. */
  team: string | null;
  /** The key's own policy (`{}`: no limits). */
  policy: Policy;
  /** The team's policy, read with the key (null without a team). */
  teamPolicy: Policy | null;
  /** When the secret was last rotated, or null. */
  rotatedAt: number | null;
  /** Until when the secret before the last rotation is still accepted, or null. */
  previousValidUntil: number | null;
}

/** A team: a policy shared by its keys, on top of their own. */
export interface TeamRecord {
  /** The team's name, which is its id (`[a-z0-9][a-z0-9_.-]*`). */
  id: string;
  policy: Policy;
  createdAt: number;
  updatedAt: number;
}

/** What a new key carries besides its name. */
export interface NewKey {
  name: string;
  admin?: boolean;
  team?: string | null;
  policy?: Policy;
}

/** A change to a key; absent fields stay as they are. */
export interface KeyPatch {
  name?: string;
  admin?: boolean;
  team?: string | null;
  policy?: Policy;
}

/** Why a presented key was refused, when its secret matched a stored one (an unknown or wrong
 * key is `unknown`: nothing about a key is told to someone who does not hold it). */
export type KeyRefusal =
  | { reason: "unknown" }
  | { reason: "revoked"; at: number }
  | { reason: "expired"; at: number }
  | { reason: "rotated"; at: number };

/** The verdict on a presented key. */
export type KeyCheck = { record: KeyRecord } | KeyRefusal;

/** How a request ended, as the ledger records it (ARCHITECTURE.md, "Outcomes"). */
export const OUTCOMES = [
  "ok",
  "upstream_error",
  "upstream_cut",
  "timeout",
  "client_disconnect",
  "budget_cut",
  "shutdown",
  "rejected",
  "internal_error",
] as const;

/** One of {@link OUTCOMES}. */
export type Outcome = typeof OUTCOMES[number];

/** What became of one upstream call: `ok` (its answer went to the client, whatever its status)
 * or why the attempt stage gave up on it. */
export const ATTEMPT_RESULTS = [
  "ok",
  /** An error status that is retried (408, 429, 5xx, 529). */
  "retryable_status",
  /** The provider refused the deployment's credential (401, 403): another deployment or a
   * fallback is tried, never this one again in the request. */
  "credential_refused",
  /** The connection could not be made (refused, reset, TLS, DNS). */
  "unreachable",
  "connect_timeout",
  /** No response headers within GATEHOUSE_UPSTREAM_TIMEOUT_MS. */
  "header_timeout",
  /** The answer broke off, or went silent, before its first byte reached the client. */
  "cut",
  /** A stream whose first events held the wire's error event (Anthropic `overloaded_error`). */
  "error_event",
  /** The request did not fit the model's context window; a fallback with a larger one was tried. */
  "context_overflow",
  /** The client left, or the gateway was shutting down, while it ran. */
  "aborted",
] as const;

/** One of {@link ATTEMPT_RESULTS}. */
export type AttemptResult = typeof ATTEMPT_RESULTS[number];

/** One upstream call of a request, as the ledger keeps it. */
export interface AttemptRecord {
  /** The deployment called (`<model or pattern>@<provider>`). */
  deployment: string;
  /** Its provider name. */
  provider: string;
  /** The catalog model it served: the requested one or a fallback. */
  model: string;
  /** The upstream's HTTP status; 0 when none came (no connection, timeout, abort). */
  status: number;
  result: AttemptResult;
  /** Milliseconds from its start to its response headers or its failure. */
  ms: number;
}

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
  /** Each upstream call, in order (absent in rows written before migration 4, and in rows of
   * requests refused before any call). */
  attemptLog?: AttemptRecord[];
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

/** A usage query over `[start, end)` (unix milliseconds): one key's, one team's keys', or (admin)
 * everyone's when neither is given. */
export interface UsageQuery {
  keyId?: string;
  /** Keys currently in this team. */
  team?: string;
  start: number;
  end: number;
  groupBy?: "model" | "day" | "key" | "team";
}

/** Spend so far of a key or a team's keys since `start` (unix milliseconds). */
export interface SpendQuery {
  keyId?: string;
  team?: string;
  start: number;
}

/** A usage report. `groups` is present when grouped; `key` is the model id, `YYYY-MM-DD`, key id
 * or team id (`""` for keys without a team). */
export interface UsageReport {
  totals: UsageTotals;
  groups?: Array<{ key: string } & UsageTotals>;
}

/** What {@link Store.usageSeries} splits each bucket's spend, tokens and requests by: the model
 * that served (the one billed; the asked-for one when none served), the key id, or the key's
 * current team (`""` for keys without one). */
export type SeriesGroupBy = "model" | "key" | "team";

/** A time series of the ledger over `[start, end)` (unix milliseconds) in buckets of `bucketMs`
 * counted from `start` (bucket `i` is `[start + i * bucketMs, start + (i + 1) * bucketMs)`). */
export interface SeriesQuery {
  start: number;
  end: number;
  bucketMs: number;
  groupBy: SeriesGroupBy;
  /** How many groups keep their own name, largest spend first; the rest are one group, `null`.
   * Default {@link SERIES_GROUPS}.default. */
  groups?: number;
}

/** How many named groups a series keeps by default, and at most. */
export const SERIES_GROUPS = { default: 8, max: 50 } as const;

/** The outcomes a series does not count as errors: an answer, or the client's own leaving. */
export const SERIES_NOT_ERRORS: readonly Outcome[] = ["ok", "client_disconnect"];

/** One group's sums in one bucket (only buckets where the group has rows). */
export interface SeriesCell {
  /** The bucket's index from the query's start. */
  bucket: number;
  /** The group's key; null for the groups past {@link SeriesQuery.groups}, summed. */
  group: string | null;
  requests: number;
  /** Requests whose outcome is not in {@link SERIES_NOT_ERRORS}. */
  errors: number;
  cost: number;
  inputTokens: number;
  outputTokens: number;
}

/** One bucket's latency percentiles (nearest rank) over its rows that called an upstream
 * (`attempts > 0`: a refusal before any call answers at once and would hide the slow ones); null
 * when the bucket has none (time to first byte: none with a first byte). */
export interface SeriesStats {
  bucket: number;
  latencyP50: number | null;
  latencyP95: number | null;
  firstByteP50: number | null;
  firstByteP95: number | null;
}

/** A usage series: the groups in order (largest spend first, `null` last), each bucket's sums
 * per group, and each bucket's percentiles. Buckets without rows are absent. */
export interface UsageSeries {
  groups: Array<string | null>;
  cells: SeriesCell[];
  stats: SeriesStats[];
}

/** The most rows {@link Store.listRequests} returns, and how many when the query names none. */
export const REQUESTS_LIMIT = { max: 1000, default: 100 } as const;

/** A query of the ledger's requests over `[start, end)` (unix milliseconds), newest first; each
 * filter given narrows it. */
export interface RequestQuery {
  start: number;
  end: number;
  keyId?: string;
  /** Keys currently in this team. */
  team?: string;
  /** The model asked for or the one that served (a fallback). */
  model?: string;
  outcome?: Outcome;
  requestId?: string;
  /** 1 to {@link REQUESTS_LIMIT}.max (clamped); default {@link REQUESTS_LIMIT}.default. */
  limit?: number;
}

/** One request as an operator looks it up: what was asked, what served it, each upstream call,
 * what it cost. Never a secret. */
export type RequestRow =
  & Pick<
    UsageRecord,
    | "requestId"
    | "keyId"
    | "model"
    | "servedModel"
    | "upstream"
    | "route"
    | "status"
    | "outcome"
    | "attempts"
    | "inputTokens"
    | "outputTokens"
    | "cost"
    | "latencyMs"
    | "firstByteMs"
    | "stream"
    | "time"
  >
  & {
    /** Each upstream call, in order; empty for rows written before migration 4 and requests
     * refused before any call. */
    attemptLog: AttemptRecord[];
  };

/** A stored Responses API response, for `previous_response_id` chains. */
export interface StoredResponse {
  id: string;
  keyId: string;
  /** The internal-representation conversation up to and including this response, as JSON. */
  conversation: string;
  createdAt: number;
}

/** Everything gatehouse persists. Implementations must be safe for concurrent requests.
 *
 * Key and team changes made through any store on the same database (another process: the CLI,
 * another instance) are seen by `checkKey` within one second. */
export interface Store {
  /** Which implementation this is. */
  readonly kind: "sqlite" | "postgres";
  /** Where the store is, for the start-up line: never a password or other secret (SQLite: the
   * file path; Postgres: `postgres://host:port/database`). */
  describe(): string;
  /** Creates a key (a bare name: no policy); returns the record and the full secret, which is
   * never stored. Throws when the named team does not exist. */
  createKey(key: string | NewKey): Promise<{ record: KeyRecord; key: string }>;
  listKeys(): Promise<KeyRecord[]>;
  /** One key by id, revoked ones included; null when none. */
  getKey(id: string): Promise<KeyRecord | null>;
  /** Changes a key; the new record, or null when no such key. Throws when the named team does
   * not exist. */
  updateKey(id: string, patch: KeyPatch): Promise<KeyRecord | null>;
  /** Revokes by id; false when no such key. */
  revokeKey(id: string): Promise<boolean>;
  /** Issues a new secret for key `id` (same id, policies and history); the old secret keeps
   * working for `graceMs`. Null when no such key or it is revoked. */
  rotateKey(id: string, graceMs: number): Promise<{ record: KeyRecord; key: string } | null>;
  /** Checks a presented key in constant time: the live record, or why it is refused. */
  checkKey(presented: string): Promise<KeyCheck>;
  /** The live record of a presented key, or null ({@link checkKey} without the reason). */
  verifyKey(presented: string): Promise<KeyRecord | null>;
  /** Forgets every verified key now, so the next check of each reads the database (another
   * instance said keys changed). */
  forgetVerifiedKeys(): void;
  /** Calls `listener` after every committed key or team change made through this store object
   * (not other ones); returns the unsubscribe. */
  onKeysChanged(listener: () => void): () => void;
  countKeys(): Promise<number>;
  /** Creates a team; throws when the id is taken or malformed. */
  createTeam(id: string, policy: Policy): Promise<TeamRecord>;
  listTeams(): Promise<TeamRecord[]>;
  getTeam(id: string): Promise<TeamRecord | null>;
  /** Replaces a team's policy; null when no such team. */
  updateTeam(id: string, policy: Policy): Promise<TeamRecord | null>;
  /** Deletes a team; false when none. Throws when keys still belong to it. */
  deleteTeam(id: string): Promise<boolean>;
  recordUsage(record: UsageRecord): Promise<void>;
  usageReport(query: UsageQuery): Promise<UsageReport>;
  /** US dollars recorded since `query.start` for one key or one team's keys (rows still queued
   * for writing included). */
  spend(query: SpendQuery): Promise<number>;
  /** The ledger's requests matching `query`, newest first (rows still queued included). */
  listRequests(query: RequestQuery): Promise<RequestRow[]>;
  /** The ledger over time, aggregated by the database (rows still queued written first). */
  usageSeries(query: SeriesQuery): Promise<UsageSeries>;
  saveResponse(response: StoredResponse): Promise<void>;
  /** The response if it exists and belongs to `keyId`. */
  loadResponse(id: string, keyId: string): Promise<StoredResponse | null>;
  close(): Promise<void>;
}
