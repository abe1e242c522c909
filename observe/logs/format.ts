/**
 * How a log line is written: `GATEHOUSE_LOG_FORMAT=json` gives one JSON object per line (`time`,
 * `level`, `message`, an `event` name for lifecycle and request lines, then the fields); the
 * default `text` gives a line a person reads (`2026-11-26T13:00:00.123Z WARN upstream attempt
 * failed requestId=req_… status=529 error="…"`). Both are one line per entry whatever the
 * values hold (newlines and control characters are escaped), and both pass through
 * {@link redactSecrets} last.
 * @module
 */
import type { Env } from "../../gateway/config.ts";

/** The log formats. */
export type LogFormat = "text" | "json";

/** The valid `GATEHOUSE_LOG_FORMAT` values, in the order an error names them. */
export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];

/** A line's level. */
export type LogLevel = "info" | "warn" | "error";

/** `GATEHOUSE_LOG_FORMAT` (`text` when unset or empty); throws an Error naming the variable and
 * the valid values otherwise, as `gateway/config.ts` does for its settings. */
export function readLogFormat(env: Env): LogFormat {
  const raw = env("GATEHOUSE_LOG_FORMAT");
  if (raw === undefined || raw === "") return "text";
  const value = raw.trim().toLowerCase();
  if (value === "text" || value === "json") return value;
  throw new Error(`GATEHOUSE_LOG_FORMAT="${raw}" is not one of: ${LOG_FORMATS.join(", ")}.`);
}

/**
 * Key material that must never reach a log line, whatever a caller passed by mistake: a
 * gatehouse key (`gth_<id>_<secret>`), provider keys (`sk-…`, `sk-ant-…`, `sk-proj-…`), and the
 * value of a bearer or basic credential. A last line of defence at the sink: the call sites
 * already pass no secret (the test suite scans their raw lines, before this runs).
 */
const SECRET =
  /gth_[a-z0-9]{4,}_[A-Za-z0-9_-]+|\bsk-[A-Za-z0-9_-]{6,}|\b(Bearer|Basic)\s+[^\s"'\\]+/g;

/** `line` with anything shaped like key material replaced by `[redacted]`. */
export function redactSecrets(line: string): string {
  // test() first: the usual line holds none, and needs no copy.
  SECRET.lastIndex = 0;
  if (!SECRET.test(line)) return line;
  SECRET.lastIndex = 0;
  return line.replace(SECRET, (_match, scheme) => scheme ? `${scheme} [redacted]` : "[redacted]");
}

/** The millisecond {@link isoTime} last formatted, and its text: a busy gateway writes several
 * lines each millisecond, and formatting a `Date` per line was most of a JSON request line's
 * cost after the fields' own JSON. */
let lastMs = Number.NaN;
let lastIso = "";

/** `now` (default: this moment) as an ISO 8601 UTC time with milliseconds, the lines' `time`. */
export function isoTime(now: number = Date.now()): string {
  if (now !== lastMs) {
    lastIso = new Date(now).toISOString();
    lastMs = now;
  }
  return lastIso;
}

/** Characters a text value is quoted for (spaces, quotes, `=`, control characters). */
// deno-lint-ignore no-control-regex
const NEEDS_QUOTES = /[\s"=\\\x00-\x1f\x7f]/;

/** One text-mode value: bare when it can be, else JSON-quoted (escapes included). */
export function textValue(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return text === "" || NEEDS_QUOTES.test(text) ? JSON.stringify(text) : text;
}

/** A message on one line: control characters (newlines included) escaped as JSON would. */
function oneLine(message: string): string {
  // deno-lint-ignore no-control-regex
  return /[\x00-\x1f\x7f]/.test(message) ? JSON.stringify(message).slice(1, -1) : message;
}

/** A text line: `time LEVEL message key=value …` (fields in their own order; undefined ones
 * left out). */
export function textLine(
  time: string,
  level: LogLevel,
  message: string,
  fields: Record<string, unknown> | undefined,
): string {
  return `${time} ${level.toUpperCase()} ${oneLine(message)}${textFields(fields)}`;
}

/** ` key=value …` for each defined field, in order ("" for none). */
export function textFields(fields: Record<string, unknown> | undefined): string {
  let text = "";
  if (fields === undefined) return text;
  for (const name in fields) {
    const value = fields[name];
    if (value !== undefined) text += ` ${name}=${textValue(value)}`;
  }
  return text;
}

/** A JSON line: `{"time","level","event"?,"message",…fields}`. */
export function jsonLine(
  time: string,
  level: LogLevel,
  message: string,
  fields: Record<string, unknown> | undefined,
  event?: string,
): string {
  // The head is written by hand and the fields' own JSON appended: no merged copy per line.
  let head = `{"time":"${time}","level":"${level}",`;
  if (event !== undefined) head += `"event":${JSON.stringify(event)},`;
  head += `"message":${JSON.stringify(message)}`;
  const rest = fields === undefined ? "{}" : JSON.stringify(fields);
  return rest === "{}" ? `${head}}` : `${head},${rest.slice(1)}`;
}

/** Control characters, stripped from values a client chose (its user agent). */
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;

/** The longest user agent a line keeps. */
export const MAX_USER_AGENT = 200;

/** A client-chosen string made safe for a line: control characters stripped, cut to `max`
 * characters (with `…`), key material redacted. */
export function clientText(value: string | null, max = MAX_USER_AGENT): string | null {
  if (value === null) return null;
  let text = value.replace(CONTROL, "");
  if (text.length > max) text = `${text.slice(0, max)}…`;
  return redactSecrets(text);
}
