/**
 * The ledger's statements, and its rows as ONE bound parameter: a batch's rows are sent as a
 * JSON array of objects and unpacked by Postgres (`json_to_recordset`) into the `usage`
 * columns, instead of 22 bound values per row. The driver then encodes one string per statement (one `JSON.stringify`, in
 * native code) rather than 22 values per row one by one, which was most of what the gateway
 * process spent on the ledger.
 *
 * The stored values are the ones the per-value statements stored: a JSON number is written with
 * the same digits as the driver's `String(number)` (both print the shortest round trip), and a
 * number JSON cannot hold (NaN, ±Infinity) is sent as that same string, which the column's own
 * input parses (or refuses) exactly as before. A string holding a lone UTF-16 surrogate is sent
 * with U+FFFD in its place, as the driver's UTF-8 encoding did (Postgres's JSON parser would
 * refuse the escape `JSON.stringify` writes for it). One change: U+0000, which no Postgres text
 * can hold, is written as U+FFFD too; before, Postgres refused the batch holding it at every
 * retry, and no later row was written (a model name a client sent was enough).
 * @module
 */
import type { UsageRecord } from "../store.ts";
import { attemptLogJson, LEDGER_COLUMNS } from "../ledger_rows.ts";

/** The SQL type of each ledger column (`migrations.ts`), in {@link LEDGER_COLUMNS} order. */
const COLUMN_TYPES: Readonly<Record<string, string>> = {
  request_id: "text",
  key_id: "text",
  model: "text",
  served_model: "text",
  upstream: "text",
  upstream_id: "text",
  route: "text",
  status: "integer",
  outcome: "text",
  attempts: "integer",
  attempt_log: "text",
  input_tokens: "bigint",
  output_tokens: "bigint",
  cached_tokens: "bigint",
  cache_write_tokens: "bigint",
  reasoning_tokens: "bigint",
  images: "integer",
  cost: "double precision",
  latency_ms: "double precision",
  first_byte_ms: "double precision",
  stream: "boolean",
  time: "bigint",
};

const RECORD_TYPE = LEDGER_COLUMNS.map((column) => {
  const type = COLUMN_TYPES[column];
  if (type === undefined) throw new Error(`ledger_json: no SQL type for column ${column}`);
  return `${column} ${type}`;
}).join(", ");

/** `INSERT … SELECT` of the rows in the JSON array bound to `$<param>`. The parameter is bound
 * as text (a driver would otherwise serialize a `json` parameter itself) and cast. */
export function insertFromJson(param: number): string {
  const columns = LEDGER_COLUMNS.join(", ");
  return `INSERT INTO usage (${columns}) SELECT ${columns} ` +
    `FROM json_to_recordset($${param}::text::json) AS r(${RECORD_TYPE})`;
}

/** One statement that claims batch id `$1` at `$2` in `ledger_batches` and inserts the rows of
 * `$3` only when the claim took (a batch claimed before was written before). */
export function claimAndInsertFromJson(): string {
  const columns = LEDGER_COLUMNS.join(", ");
  return "WITH claim AS (INSERT INTO ledger_batches (id, written_at) VALUES ($1, $2) " +
    `ON CONFLICT (id) DO NOTHING RETURNING id) INSERT INTO usage (${columns}) ` +
    `SELECT ${LEDGER_COLUMNS.map((c) => `r.${c}`).join(", ")} ` +
    `FROM claim, json_to_recordset($3::text::json) AS r(${RECORD_TYPE})`;
}

/** Claims batch id `$1` at `$2`; no row back when it was claimed (written) before. */
export const CLAIM_BATCH =
  "INSERT INTO ledger_batches (id, written_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING " +
  "RETURNING id";
/** Inserts the rows of `$1` (a batch too large for one statement, in its transaction). */
export const INSERT = insertFromJson(1);
/** Claims batch `$1` (at `$2`) and inserts its rows (`$3`) only if the claim took: one
 * statement, so one implicit transaction. */
export const CLAIM_AND_INSERT = claimAndInsertFromJson();

/** A number as the driver sent it: itself when JSON can hold it, else its `String` form. */
function num(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}

/** One row as the object {@link insertFromJson} reads, keyed by column. */
function rowObject(r: UsageRecord, fix: (text: string) => string): Record<string, unknown> {
  return {
    request_id: fix(r.requestId),
    key_id: fix(r.keyId),
    model: fix(r.model),
    served_model: fix(r.servedModel),
    upstream: fix(r.upstream),
    upstream_id: r.upstreamId === null ? null : fix(r.upstreamId),
    route: fix(r.route),
    status: num(r.status),
    outcome: r.outcome,
    attempts: num(r.attempts),
    attempt_log: attemptLogText(r, fix),
    input_tokens: num(r.inputTokens),
    output_tokens: num(r.outputTokens),
    cached_tokens: num(r.cachedTokens),
    cache_write_tokens: num(r.cacheWriteTokens),
    reasoning_tokens: num(r.reasoningTokens),
    images: num(r.images),
    cost: num(r.cost),
    latency_ms: num(r.latencyMs),
    first_byte_ms: r.firstByteMs === null ? null : num(r.firstByteMs),
    stream: r.stream,
    time: num(r.time),
  };
}

function attemptLogText(r: UsageRecord, fix: (text: string) => string): string | null {
  const json = attemptLogJson(r);
  return json === null ? null : fix(json);
}

const asIs = (text: string) => text;
/** Text Postgres can store: a lone surrogate as U+FFFD (what UTF-8 encoding makes of it), and
 * U+0000 too (a text column cannot hold it, and Postgres refused the whole batch for it, again
 * at every retry, so one request naming such a model stopped the ledger). */
const storable = (text: string) =>
  (text.isWellFormed() ? text : text.toWellFormed()).replaceAll("\0", "\ufffd");

/** `JSON.stringify` writes a lone surrogate (a paired one is written as itself) or U+0000 as
 * these escapes. Their text can also follow an escaped backslash: then the rows are only
 * fixed needlessly. */
const UNSTORABLE_ESCAPE = /\\u(?:d[89a-f]|0000)/;

/** The JSON array of `rows` for {@link insertFromJson}. */
export function ledgerJson(rows: readonly UsageRecord[]): string {
  const json = JSON.stringify(rows.map((r) => rowObject(r, asIs)));
  return UNSTORABLE_ESCAPE.test(json)
    ? JSON.stringify(rows.map((r) => rowObject(r, storable)))
    : json;
}
