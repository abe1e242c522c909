/**
 * The head of an HTTP/1.1 response: status line and header fields, up to the blank line.
 * @module
 */

/** A parsed response head. */
export interface ResponseHead {
  /** `1.1` or `1.0`. */
  version: "1.0" | "1.1";
  status: number;
  statusText: string;
  headers: Headers;
  /** Bytes the head took, blank line included: the body starts there. */
  length: number;
}

/** The largest head accepted; providers send a few KiB at most. */
export const MAX_HEAD_BYTES = 64 * 1024;

const ascii = new TextDecoder();

/** Each byte as the code unit of the same value, as `fetch` reads header bytes. (A "latin1"
 * `TextDecoder` is windows-1252: it maps 0x80-0x9F, common in UTF-8 text, above 0xFF, which
 * `Headers` rejects.) */
function latin1(bytes: Uint8Array): string {
  // Heads are nearly always ASCII, where UTF-8 decoding gives the same text, natively.
  let high = 0;
  for (let i = 0; i < bytes.length; i++) high |= bytes[i]!;
  if (high < 0x80) return ascii.decode(bytes);
  let text = "";
  // In slices, to stay far below the engine's limit on arguments.
  for (let i = 0; i < bytes.length; i += 4096) {
    text += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return text;
}

/** Index just past the first `\r\n\r\n` (or bare `\n\n`) in `bytes`, or -1. */
export function headEnd(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 10) continue;
    if (bytes[i + 1] === 10) return i + 2;
    if (bytes[i + 1] === 13 && bytes[i + 2] === 10) return i + 3;
  }
  return -1;
}

/** Parses the head at the start of `bytes`; null while the blank line has not arrived. Throws
 * on a malformed head or one over {@link MAX_HEAD_BYTES}. */
export function parseResponseHead(bytes: Uint8Array): ResponseHead | null {
  const end = headEnd(bytes);
  if ((end === -1 ? bytes.length : end) > MAX_HEAD_BYTES) {
    throw new Error(`the response head is over ${MAX_HEAD_BYTES} bytes`);
  }
  if (end === -1) return null;
  const lines = latin1(bytes.subarray(0, end)).split(/\r?\n/);
  const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0] ?? "");
  if (!statusLine) {
    throw new Error(
      `not an HTTP/1.x status line: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`,
    );
  }
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    // Obsolete line folding is forbidden in responses (RFC 9112 §5.2) and never sent by providers.
    if (line.startsWith(" ") || line.startsWith("\t")) {
      throw new Error("the response head folds a header line, which HTTP/1.1 forbids");
    }
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return {
    version: statusLine[1] === "0" ? "1.0" : "1.1",
    status: Number(statusLine[2]),
    statusText: statusLine[3] ?? "",
    headers,
    length: end,
  };
}
