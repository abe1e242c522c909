/**
 * Ledger helpers every store shares: the columns of a ledger row and their values, reading a
 * stored outcome and attempt log, the columns of a request listing and a listed row as a
 * {@link RequestRow}, the row limit of a listing, and matching rows still queued for writing
 * against a query.
 * @module
 */
import {
  ATTEMPT_RESULTS,
  type AttemptRecord,
  type AttemptResult,
  type Outcome,
  OUTCOMES,
  type RequestQuery,
  type RequestRow,
  REQUESTS_LIMIT,
  type SpendQuery,
  type UsageRecord,
} from "./store.ts";
import type { Cells } from "./row_cells.ts";

/** The columns of one ledger row every store writes, in {@link ledgerValues} order. (SQLite also
 * writes its legacy `aborted` column; Postgres has none.) */
export const LEDGER_COLUMNS: readonly string[] = [
  "request_id",
  "key_id",
  "model",
  "served_model",
  "upstream",
  "upstream_id",
  "route",
  "status",
  "outcome",
  "attempts",
  "attempt_log",
  "input_tokens",
  "output_tokens",
  "cached_tokens",
  "cache_write_tokens",
  "reasoning_tokens",
  "images",
  "cost",
  "latency_ms",
  "first_byte_ms",
  "stream",
  "time",
];

/** The bound values of one ledger row, in {@link LEDGER_COLUMNS} order; `flag` writes a boolean
 * as the dialect stores it (SQLite 0 or 1, Postgres a real boolean). */
export function ledgerValues<F>(
  r: UsageRecord,
  flag: (value: boolean) => F,
): (string | number | null | F)[] {
  return [
    r.requestId,
    r.keyId,
    r.model,
    r.servedModel,
    r.upstream,
    r.upstreamId,
    r.route,
    r.status,
    r.outcome,
    r.attempts,
    attemptLogJson(r),
    r.inputTokens,
    r.outputTokens,
    r.cachedTokens,
    r.cacheWriteTokens,
    r.reasoningTokens,
    r.images,
    r.cost,
    r.latencyMs,
    r.firstByteMs,
    flag(r.stream),
    r.time,
  ];
}

/** The columns a request listing selects, for {@link requestRowFrom}. */
export const REQUEST_COLUMNS = "request_id, key_id, model, served_model, upstream, route, " +
  "status, outcome, attempts, attempt_log, input_tokens, output_tokens, cost, latency_ms, " +
  "first_byte_ms, stream, time";

/** The row count a query asks for, within 1 to {@link REQUESTS_LIMIT}.max. */
export function requestsLimit(limit: number | undefined): number {
  const asked = Math.floor(limit ?? REQUESTS_LIMIT.default);
  return Number.isFinite(asked) ? Math.min(REQUESTS_LIMIT.max, Math.max(1, asked)) : 1;
}

function mismatch(what: string, value: unknown): Error {
  return new Error(`store schema mismatch: ${what}, got ${JSON.stringify(value)}`);
}

/** A stored outcome; throws when it is not one of {@link OUTCOMES}. */
export function outcomeOf(value: string): Outcome {
  const outcome = OUTCOMES.find((o) => o === value);
  if (outcome === undefined) throw mismatch("usage.outcome should be an outcome", value);
  return outcome;
}

function resultOf(value: unknown): AttemptResult | undefined {
  return ATTEMPT_RESULTS.find((r) => r === value);
}

/** One `attempt_log` entry, its fields in their usual order. */
function attemptOf(value: unknown): AttemptRecord {
  const entry: Record<string, unknown> = typeof value === "object" && value !== null
    ? { ...value }
    : {};
  const { deployment, provider, model, status, ms } = entry;
  const result = resultOf(entry.result);
  if (
    typeof deployment === "string" && typeof provider === "string" &&
    typeof model === "string" && typeof status === "number" && typeof ms === "number" &&
    result !== undefined
  ) return { deployment, provider, model, status, result, ms };
  throw mismatch("an attempt_log entry should be an attempt", value);
}

/** The attempts of a row's `attempt_log` (none when NULL). */
export function attemptLogOf(json: string | null): AttemptRecord[] {
  if (json === null) return [];
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw mismatch("usage.attempt_log should be an array", parsed);
  return parsed.map(attemptOf);
}

/** The JSON stored for a row's attempts: NULL when there were none. */
export function attemptLogJson(record: UsageRecord): string | null {
  const log = record.attemptLog;
  return log === undefined || log.length === 0 ? null : JSON.stringify(log);
}

/** True when a queued row counts toward `query`'s spend (`members`: the team's keys, or null
 * when the query names no team). */
export function queuedSpends(
  r: UsageRecord,
  query: SpendQuery,
  members: ReadonlySet<string> | null,
): boolean {
  if (r.time < query.start) return false;
  if (query.keyId !== undefined && r.keyId !== query.keyId) return false;
  return members === null || members.has(r.keyId);
}

/** True when a queued row is one `query` lists (`members` as for {@link queuedSpends}). */
export function queuedListed(
  r: UsageRecord,
  query: RequestQuery,
  members: ReadonlySet<string> | null,
): boolean {
  if (r.time < query.start || r.time >= query.end) return false;
  if (query.keyId !== undefined && r.keyId !== query.keyId) return false;
  if (members !== null && !members.has(r.keyId)) return false;
  if (query.model !== undefined && r.model !== query.model && r.servedModel !== query.model) {
    return false;
  }
  if (query.outcome !== undefined && r.outcome !== query.outcome) return false;
  return query.requestId === undefined || r.requestId === query.requestId;
}

/** A queued ledger row as a listing shows it. */
export function requestRowOf(r: UsageRecord): RequestRow {
  return {
    requestId: r.requestId,
    keyId: r.keyId,
    model: r.model,
    servedModel: r.servedModel,
    upstream: r.upstream,
    route: r.route,
    status: r.status,
    outcome: r.outcome,
    attempts: r.attempts,
    attemptLog: r.attemptLog ?? [],
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    cost: r.cost,
    latencyMs: r.latencyMs,
    firstByteMs: r.firstByteMs,
    stream: r.stream,
    time: r.time,
  };
}

/** A listed ledger row (its {@link REQUEST_COLUMNS}) as a listing shows it. */
export function requestRowFrom<R>(row: R, cells: Cells<R>): RequestRow {
  return {
    requestId: cells.text(row, "request_id"),
    keyId: cells.text(row, "key_id"),
    model: cells.text(row, "model"),
    servedModel: cells.text(row, "served_model"),
    upstream: cells.text(row, "upstream"),
    route: cells.text(row, "route"),
    status: cells.num(row, "status"),
    outcome: outcomeOf(cells.text(row, "outcome")),
    attempts: cells.num(row, "attempts"),
    attemptLog: attemptLogOf(cells.textOrNull(row, "attempt_log")),
    inputTokens: cells.num(row, "input_tokens"),
    outputTokens: cells.num(row, "output_tokens"),
    cost: cells.num(row, "cost"),
    latencyMs: cells.num(row, "latency_ms"),
    firstByteMs: cells.numOrNull(row, "first_byte_ms"),
    stream: cells.bool(row, "stream"),
    time: cells.num(row, "time"),
  };
}
