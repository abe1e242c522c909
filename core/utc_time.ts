/**
 * Reading times people type: an RFC 3339 date (`2027-01-01`, midnight UTC) or date-time, where a
 * date-time without an offset is read as UTC (never the server's local zone, which would make
 * the same command mean different instants on different machines).
 * @module
 */

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Unix milliseconds of `text`, or null when it is not a date or date-time of that form. */
export function parseUtcTime(text: string): number | null {
  const match = DATE_TIME.exec(text.trim());
  if (match === null) return null;
  const [, date, time, offset] = match;
  const iso = time === undefined ? `${date}T00:00:00Z` : `${date}T${time}${offset ?? "Z"}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}
