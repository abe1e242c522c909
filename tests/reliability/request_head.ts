/**
 * The header fields of a raw HTTP/1.1 request head, for the fault fake's request records.
 * @module
 */

/** The header fields of `head` (request line first, CRLF-separated), names lower-cased. */
export function headersOf(head: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of head.split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) fields[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return fields;
}
