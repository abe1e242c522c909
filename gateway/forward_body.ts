/**
 * The body a same-wire upstream gets: the client's own JSON text with only the top-level model's
 * value replaced, so every other byte goes on exactly as the client wrote it (key order, number
 * spelling, escapes) and the gateway does not serialize the body again (in the passthrough, the
 * spread and `JSON.stringify` of a 3 KB chat body were about 3% of a request's CPU).
 *
 * Done by text only when the text proves where that value is; otherwise the parsed body is
 * serialized with the new model, as before:
 * - `"model"` followed by `:` can only be an object key (a `"` inside a JSON string is escaped),
 *   so exactly one such token, and no escaped letter of the word anywhere (a key spelled
 *   `"mod\u0065l"` would be another model key), means it is the top-level one;
 * - its value must be a string, which is then read to its closing quote;
 * - `stream` appears as a key at most once: with the text forwarded as it is, a duplicate would
 *   reach the provider, which might read the first where the gateway read the last (a stream
 *   billed as a JSON answer). Other duplicates the gateway does not act on.
 *
 * A top-level member the gateway adds (chat streams: `stream_options`, for the usage chunk) is
 * written right after the opening brace, and only when the parsed body has no such key: the
 * client wrote none, under any spelling, so the provider sees it once.
 * @module
 */

/** An escaped letter of "model" (d, e, l, m, o): a model key could be spelled with it. */
const ESCAPED_LETTER = /\\u006[45cdf]/i;
const KEY = '"model"';
const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/** Whether the character at `i` is JSON whitespace. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The index just past a key token's colon, when the `key` (quoted) at `at` is one; else -1. */
function afterColon(text: string, at: number, key: string): number {
  let i = at + key.length;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === 0x3a ? i + 1 : -1;
}

/** {@link soleKey}: no such key. */
const NONE = -1;
/** {@link soleKey}: more than one such key. */
const MANY = -2;

/** The index just past the colon of the one object key `key` (quoted) of `text`, or
 * {@link NONE} or {@link MANY}. (A `"key"` token followed by a colon is a key: a quote inside
 * a string value is escaped.) */
function soleKey(text: string, key: string): number {
  let found = NONE;
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + key.length)) {
    const colon = afterColon(text, at, key);
    if (colon === -1) continue; // a string value, not a key
    if (found !== NONE) return MANY;
    found = colon;
  }
  return found;
}

/** The range of the top-level model's string value in `text`, or null when the text does not
 * prove it (see the module doc). */
export function modelValueRange(text: string): [number, number] | null {
  if (ESCAPED_LETTER.test(text)) return null;
  const valueFrom = soleKey(text, KEY);
  if (valueFrom < 0) return null;
  let start = valueFrom;
  while (start < text.length && isSpace(text.charCodeAt(start))) start++;
  if (text.charCodeAt(start) !== QUOTE) return null;
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE) return [start, i + 1];
  }
  return null;
}

/** A top-level member to add to the forwarded body. */
export interface AddedMember {
  key: string;
  value: unknown;
}

/** The JSON text to forward: `text` (the client's body, when the route kept it) with its model
 * replaced by `model` (and `add` written first), or `body` serialized with `model` (and `add`)
 * when the text cannot be used. */
export function forwardBody(
  text: string | undefined,
  body: Record<string, unknown>,
  model: string,
  add?: AddedMember,
): string {
  const usable = text !== undefined && typeof body.model === "string" &&
    soleKey(text, '"stream"') !== MANY && (add === undefined || !Object.hasOwn(body, add.key));
  const range = usable ? modelValueRange(text) : null;
  if (range === null) {
    return JSON.stringify(
      add === undefined ? { ...body, model } : { ...body, model, [add.key]: add.value },
    );
  }
  // The body's opening brace: before the model key, which is inside it.
  const brace = text!.indexOf("{");
  const added = add === undefined ? "" : `${JSON.stringify(add.key)}:${JSON.stringify(add.value)},`;
  return text!.slice(0, brace + 1) + added + text!.slice(brace + 1, range[0]) +
    JSON.stringify(model) + text!.slice(range[1]);
}
