/**
 * The head of an HTTP/1.1 response: status line and header fields, up to the blank line.
 * @module
 */
import type { HeaderReader } from "../core/header_reader.ts";
import { TOKEN } from "./header_syntax.ts";

/** A response's header fields, read-only. Not a `Headers`: building one validates and copies
 * each field into the runtime's header list, 17 µs for a provider's usual 25 fields, of which
 * the gateway reads about ten. This keeps the (validated) head text and finds a field when it is
 * asked for. */
export class ResponseHeaders implements HeaderReader {
  /** The field lines, each after its "\n", up to the blank line. */
  readonly #text: string;
  #lower: string | undefined;

  /** `fields`: the head from the end of the status line, already checked by {@link FIELDS}. */
  constructor(fields: string) {
    this.#text = fields;
  }

  /** The field's value, or null. A repeated field's values are joined with ", ", as `Headers`
   * joins them; the name is case-insensitive. */
  get(name: string): string | null {
    // Latin-1 text keeps its length when lowercased, so offsets in both strings agree.
    const lower = this.#lower ??= this.#text.toLowerCase();
    const key = `\n${name.toLowerCase()}:`;
    let value: string | null = null;
    for (let at = lower.indexOf(key); at !== -1;) {
      const end = this.#text.indexOf("\n", at + key.length);
      const one = trimOws(withoutCr(this.#text.slice(at + key.length, end)));
      value = value === null ? one : `${value}, ${one}`;
      at = lower.indexOf(key, end);
    }
    return value;
  }
}

/** A parsed response head. */
export interface ResponseHead {
  /** `1.1` or `1.0`. */
  version: "1.0" | "1.1";
  status: number;
  statusText: string;
  headers: ResponseHeaders;
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
  // Heads are nearly always ASCII, where UTF-8 decoding gives the same text, natively. Any other
  // byte either joins a multi-byte character (the text comes out shorter) or decodes to U+FFFD.
  const text = ascii.decode(bytes);
  if (text.length === bytes.length && !text.includes("\ufffd")) return text;
  let bytewise = "";
  // In slices, to stay far below the engine's limit on arguments.
  for (let i = 0; i < bytes.length; i += 4096) {
    bytewise += String.fromCharCode(...bytes.subarray(i, i + 4096));
  }
  return bytewise;
}

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/;

/** One field line (`name:value`, the name a token, the value free of NUL and stray CR), its line
 * end's CR included. RFC 9112 §5.1 allows no space before the colon. */
const FIELD_LINE_SOURCE = `${TOKEN}:[^\\0\\r\\n]*\\r?`;

/** Field lines, each after its "\n", then the blank line. */
const FIELDS = new RegExp(`^(?:\\n${FIELD_LINE_SOURCE})*\\n\\r?\\n$`);

/** One field line alone, for naming the one {@link FIELDS} refused. */
const FIELD_LINE = new RegExp(`^${FIELD_LINE_SOURCE}$`);

/** `text` without leading and trailing spaces and tabs (HTTP's optional whitespace; `trim`
 * would also take Latin-1's no-break space, a byte a value may end with). */
function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isOws(text.charCodeAt(start))) start++;
  while (end > start && isOws(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isOws(code: number): boolean {
  return code === 32 || code === 9;
}

/** `line` without the CR of a CRLF line end. */
function withoutCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** Index just past the first `\r\n\r\n` (or bare `\n\n`) in `bytes`, or -1. */
export function headEnd(bytes: Uint8Array): number {
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) {
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
  const text = latin1(bytes.subarray(0, end));
  const lineEnd = text.indexOf("\n");
  const firstLine = withoutCr(text.slice(0, lineEnd));
  const statusLine = STATUS_LINE.exec(firstLine);
  if (!statusLine) {
    throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(firstLine.slice(0, 80))}`);
  }
  const fields = text.slice(lineEnd);
  if (!FIELDS.test(fields)) throw fieldError(fields);
  return {
    version: statusLine[1] === "0" ? "1.0" : "1.1",
    status: Number(statusLine[2]),
    statusText: statusLine[3] ?? "",
    headers: new ResponseHeaders(fields),
    length: end,
  };
}

/** What is wrong with the first bad line of `fields`, which {@link FIELDS} refused. */
function fieldError(fields: string): Error {
  const lines = fields.split("\n").slice(1);
  const line = lines.find((line) => withoutCr(line) !== "" && !FIELD_LINE.test(line)) ?? "";
  // Obsolete line folding is forbidden in responses (RFC 9112 §5.2) and never sent by providers.
  return line.startsWith(" ") || line.startsWith("\t")
    ? new Error("the response head folds a header line, which HTTP/1.1 forbids")
    : new Error(`malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
}
