/**
 * Reading JSON tokens in raw text without parsing it: where a string literal, a value or a
 * key's value ends, and a string literal decoded. The readers return offsets, or
 * {@link GIVE_UP} for anything they cannot read exactly (a line break or control character
 * where JSON allows none, a literal with no end), so a caller can fall back to a full parse.
 * Used by `output_scan.ts` to find the output text of raw stream events.
 * @module
 */

/** Character code of `"`. */
export const QUOTE = 34;
/** Character code of a space: codes below it are control characters. */
export const SPACE = 32;
/** Character code of `,`. */
export const COMMA = 44;
/** Character code of `{`. */
export const OPEN_BRACE = 123;
/** Character code of `}`. */
export const CLOSE_BRACE = 125;
const BACKSLASH = 92;
const TAB = 9;
const COLON = 58;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
/** Returned by the readers when they cannot go on exactly. */
export const GIVE_UP = -2;

/** The first offset at or after `p` that is not a space or tab; {@link GIVE_UP} at a line break
 * or control character (data continued on another `data:` line), or at the end. */
export function skipSpace(text: string, p: number): number {
  for (; p < text.length; p++) {
    const c = text.charCodeAt(p);
    if (c !== SPACE && c !== TAB) return c < SPACE ? GIVE_UP : p;
  }
  return GIVE_UP;
}

/** Whether the literal {@link stringEnd} last ended holds an escape (a lexer's state: one
 * flag, read right after the call, saves a second pass over every literal). */
let escaped = false;

/** The offset just past the string literal opening at `p`; {@link GIVE_UP} when it has a raw
 * control character or no end in the text. */
export function stringEnd(text: string, p: number): number {
  escaped = false;
  for (let i = p + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      escaped = true;
      i++;
    } else if (c < SPACE) return GIVE_UP;
  }
  return GIVE_UP;
}

/** Whether the literal {@link stringEnd} last ended holds an escape. */
export function endedEscaped(): boolean {
  return escaped;
}

/** The literal {@link stringEnd} last ended, `text[start, end)` (quotes included), decoded:
 * its characters as they are, or as `JSON.parse` decodes its escapes; null when an escape is
 * bad. */
export function decodeEnded(text: string, start: number, end: number): string | null {
  if (!escaped) return text.slice(start + 1, end - 1);
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return null;
  }
}

/** The offset just past the JSON value starting at `p` (a string, object, array or scalar);
 * {@link GIVE_UP} for anything it cannot skip exactly. */
export function valueEnd(text: string, p: number): number {
  const first = text.charCodeAt(p);
  if (first === QUOTE) return stringEnd(text, p);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    for (let i = p; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === SPACE || c === TAB) {
        return i;
      }
      if (c < SPACE) return GIVE_UP;
    }
    return GIVE_UP;
  }
  let depth = 0;
  for (let i = p; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === GIVE_UP) return GIVE_UP;
      i--;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    } else if (c < SPACE) return GIVE_UP;
  }
  return GIVE_UP;
}

/** After a key ending just before `p`: the offset of its value; -1 when no colon follows (the
 * match was a string value, not a key); {@link GIVE_UP} at a line break. */
export function valueAfterKey(text: string, p: number): number {
  const colon = skipSpace(text, p);
  if (colon === GIVE_UP) return GIVE_UP;
  if (text.charCodeAt(colon) !== COLON) return -1;
  return skipSpace(text, colon + 1);
}

/** Patterns of `"key":` by key. */
const keyPatterns = new Map<string, RegExp>();

/** The pattern of `"key":` with the space around its colon (`key`: letters, digits and `_`),
 * made once per key and shared: global, so set its `lastIndex` before each use, and never use
 * one key's pattern inside a loop over the same key's matches. */
export function keyPattern(key: string): RegExp {
  let pattern = keyPatterns.get(key);
  if (pattern === undefined) {
    pattern = new RegExp(`"${key}"\\s*:\\s*`, "g");
    keyPatterns.set(key, pattern);
  }
  return pattern;
}

/** After `pattern` (a {@link keyPattern}) matched, ending at its `lastIndex`: the offset of the
 * value; {@link GIVE_UP} when a line break splits key and value (data continued on another
 * `data:` line). Reads back over the colon and the space around it (the match itself is not
 * asked for: `exec` allocates, `test` does not). */
export function valueAt(text: string, pattern: RegExp): number {
  const value = pattern.lastIndex;
  for (let i = value - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return value;
    if (c === 10 || c === 13) return GIVE_UP;
  }
  return value;
}
