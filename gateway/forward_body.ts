/**
 * The body a same-wire upstream gets: the client's own JSON text with only the top-level model's
 * value replaced, so every other byte goes on exactly as the client wrote it (key order, number
 * spelling, escapes) and the gateway does not serialize the body again (in the passthrough, the
 * spread and `JSON.stringify` of a 3 KB chat body were about 3% of a request's CPU).
 *
 * Done by text only when the text proves where that value is; otherwise the parsed body is
 * serialized with the new model, as before:
 * - no escaped letter of the word "model" anywhere (a key spelled `"mod\u0065l"` would be
 *   another model key the search below cannot see);
 * - every `"model"` followed by `:` (a key, unless it ends a string with an escaped quote before
 *   it, which only adds a token) belongs to a different object: there are exactly as many such
 *   tokens as objects in the parsed body with a `model` key. A duplicate key, which the parse
 *   collapses into one, makes one token too many. So the top-level object has exactly one;
 * - with one token, it is the top-level one. With more (Claude Code's Agent tool has a `model`
 *   property in its input schema), it is the one whose value is a string equal to the parsed
 *   model: the top-level's value is that, and no other may be. Its value is read to its closing
 *   quote;
 * - `stream` likewise: at most one token, or one per object with a `stream` key. With the text
 *   forwarded as it is, a duplicate would reach the provider, which might read the first where
 *   the gateway read the last (a stream billed as a JSON answer). Other duplicates the gateway
 *   does not act on.
 *
 * A top-level member the gateway adds (chat streams: `stream_options`, for the usage chunk) is
 * written right after the opening brace, and only when the parsed body has no such key: the
 * client wrote none, under any spelling, so the provider sees it once.
 *
 * A large body (`routes/body.ts` keeps the bytes of one of 16 KiB or more whose text decodes
 * exactly) is answered as the client's bytes with the same replacement, so it is not encoded to
 * UTF-8 again. On the bench's 56 kB agent body with non-ASCII text, encoding the forwarded text
 * cost 75-90 µs of the 156-179 µs this step took on a slow box; the bytes path takes 82-88 µs,
 * most of it the key scan, which both paths need.
 * @module
 */
import { concatBytes } from "../core/bytes.ts";

const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/** Whether the character at `i` is JSON whitespace. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** In one pass: a `"model"` or `"stream"` key (a quoted word followed by a colon: a quote
 * inside a string value is escaped), or an escaped letter of "model" (d, e, l, m, o; a model
 * key could be spelled with it). One regular expression over the text, rather than a search
 * per key and a third for the escapes: on a 56 kB coding-agent body the three searches took
 * 66 µs of the request, this pass 12 µs. */
const KEYS = /"(model|stream)"[ \t\n\r]*:|\\[uU]006[45cdfCDF]/g;

/** The `model` and `stream` key tokens of a text, or that it has an escaped letter of "model". */
interface KeyScan {
  /** The index just past each `model` key token's colon. */
  modelColons: number[];
  streams: number;
  escaped: boolean;
}

/** {@link KeyScan} of `text` (it stops at the first escaped letter). */
function scanKeys(text: string): KeyScan {
  const modelColons: number[] = [];
  let streams = 0;
  KEYS.lastIndex = 0;
  for (let match = KEYS.exec(text); match !== null; match = KEYS.exec(text)) {
    if (match[1] === "model") modelColons.push(KEYS.lastIndex);
    else if (match[1] === "stream") streams++;
    else return { modelColons, streams, escaped: true };
  }
  return { modelColons, streams, escaped: false };
}

/** How many objects in the parsed JSON `root` (itself included) have an own `key`. Iterative: a
 * client's body may nest deeper than the call stack. */
function objectsWithKey(root: unknown, key: string): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === "object" && item !== null) stack.push(item);
      continue;
    }
    const object = value as Record<string, unknown>;
    if (Object.hasOwn(object, key)) count++;
    for (const name in object) {
      const item = object[name];
      if (typeof item === "object" && item !== null) stack.push(item);
    }
  }
  return count;
}

/** The range of the string value that starts at or after `from` (past JSON whitespace), or
 * null when no string value starts there. */
function stringValueRange(text: string, from: number): [number, number] | null {
  let start = from;
  while (start < text.length && isSpace(text.charCodeAt(start))) start++;
  if (text.charCodeAt(start) !== QUOTE) return null;
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE) return [start, i + 1];
  }
  return null;
}

/** The range of the top-level model's string value in `text`, or null when the text alone does
 * not prove it: one `model` key token and no escaped letter of the word. */
export function modelValueRange(text: string): [number, number] | null {
  const { modelColons, escaped } = scanKeys(text);
  return escaped || modelColons.length !== 1 ? null : stringValueRange(text, modelColons[0]!);
}

/** The range of the top-level model's string value in `text`, proven with the parsed `body`'s
 * help (see the module doc), or null. The walks of the body run only when a key has more than
 * one token. */
function topLevelModel(text: string, body: Record<string, unknown>): [number, number] | null {
  const { modelColons, streams, escaped } = scanKeys(text);
  if (escaped || modelColons.length === 0) return null;
  if (streams > 1 && streams !== objectsWithKey(body, "stream")) return null;
  if (modelColons.length === 1) return stringValueRange(text, modelColons[0]!);
  if (modelColons.length !== objectsWithKey(body, "model")) return null;
  let found: [number, number] | null = null;
  for (const colon of modelColons) {
    const range = stringValueRange(text, colon);
    if (range === null || JSON.parse(text.slice(range[0], range[1])) !== body.model) continue;
    if (found !== null) return null;
    found = range;
  }
  return found;
}

/** A top-level member to add to the forwarded body. */
export interface AddedMember {
  key: string;
  value: unknown;
}

const encoder = new TextEncoder();
/** Where the text's sides are encoded to count their bytes (synchronous use only). A longer side
 * is encoded into a buffer of its own, not into a scratch that would stay that large. */
const scratch = new Uint8Array(16 * 1024);

/** The number of UTF-8 bytes of `text`. */
function utf8Length(text: string): number {
  // UTF-8 takes at most three bytes per UTF-16 code unit.
  if (text.length * 3 > scratch.length) return encoder.encode(text).length;
  return encoder.encodeInto(text, scratch).written;
}

/** The byte range in `utf8` of the characters `range` of `text`, its decoding. Only the shorter
 * side of the text around the value is encoded to count its bytes: SDKs write the model near one
 * end (first, or right after the messages), so that side is short, whatever the body's size. */
function byteRange(text: string, utf8: Uint8Array, [start, end]: [number, number]) {
  const value = utf8Length(text.slice(start, end));
  if (start <= text.length - end) {
    const from = utf8Length(text.slice(0, start));
    return [from, from + value] as const;
  }
  const to = utf8.length - utf8Length(text.slice(end));
  return [to - value, to] as const;
}

/** The JSON to forward: `text` (the client's body, when the route kept it) with its model
 * replaced by `model` (and `add` written first), or `body` serialized with `model` (and `add`)
 * when the text cannot be used. With `utf8`, the text's bytes (`routes/body.ts` keeps a large
 * body's), the answer is those bytes with the same replacement: a large body is not encoded
 * again, which cost about 1 µs a kB. */
export function forwardBody(
  text: string | undefined,
  body: Record<string, unknown>,
  model: string,
  add?: AddedMember,
): string;
export function forwardBody(
  text: string | undefined,
  body: Record<string, unknown>,
  model: string,
  add: AddedMember | undefined,
  utf8: Uint8Array<ArrayBuffer> | undefined,
): string | Uint8Array<ArrayBuffer>;
export function forwardBody(
  text: string | undefined,
  body: Record<string, unknown>,
  model: string,
  add?: AddedMember,
  utf8?: Uint8Array<ArrayBuffer>,
): string | Uint8Array<ArrayBuffer> {
  const usable = text !== undefined && typeof body.model === "string" &&
    (add === undefined || !Object.hasOwn(body, add.key));
  const range = usable ? topLevelModel(text, body) : null;
  if (range === null) {
    return JSON.stringify(
      add === undefined ? { ...body, model } : { ...body, model, [add.key]: add.value },
    );
  }
  // The body's opening brace: before the model key, which is inside it. Only JSON whitespace,
  // one byte a character, can come before it.
  const brace = text!.indexOf("{");
  const added = add === undefined ? "" : `${JSON.stringify(add.key)}:${JSON.stringify(add.value)},`;
  if (utf8 !== undefined) {
    const [from, to] = byteRange(text!, utf8, range);
    // `routes/body.ts` keeps only bytes the text is exactly the decoding of. Were they not,
    // the value's quotes would most likely not be where the text puts them: the text is sent.
    if (utf8[from] === 0x22 && utf8[to - 1] === 0x22 && utf8[brace] === 0x7b) {
      return concatBytes([
        utf8.subarray(0, brace + 1),
        encoder.encode(added),
        utf8.subarray(brace + 1, from),
        encoder.encode(JSON.stringify(model)),
        utf8.subarray(to),
      ]);
    }
  }
  return text!.slice(0, brace + 1) + added + text!.slice(brace + 1, range[0]) +
    JSON.stringify(model) + text!.slice(range[1]);
}
