/**
 * The output text of a run of raw SSE events (one upstream read's complete events), read
 * without parsing them: every wire carries generated text under a `"delta"` key, so the scan
 * finds those keys (one regular-expression pass over a chat run; on wires that name their
 * events, only in the events named as text deltas) and decodes only the JSON string literals
 * that hold text (`JSON.parse` of just the literal when it has escapes, so escapes and
 * surrogate pairs decode exactly as a full parse would). A budget meters every streamed event,
 * and a full `JSON.parse` of each one cost more than the rest of the passthrough's work on it.
 *
 * A key pattern such as `"delta"` followed by `:` cannot match inside a string literal (a quote
 * there is always escaped), so every match is a real key. Whatever the scan does not read
 * exactly makes it give up (returns false), and the caller parses that run's events one by one:
 * a line break between JSON tokens (an event's data on several lines), an escaped key, a
 * malformed literal, and, on wires that name their events, an event with data but no leading
 * `event:` line, or a run with CR line ends.
 * @module
 */

import {
  CLOSE_BRACE,
  COMMA,
  decodeEnded,
  endedEscaped,
  GIVE_UP,
  keyPattern,
  OPEN_BRACE,
  QUOTE,
  skipSpace,
  SPACE,
  stringEnd,
  valueAfterKey,
  valueAt,
  valueEnd,
} from "./json_text.ts";

/** Output text found in a run, in order: the first `count` entries of `texts`, each with the
 * offset in the run just past it (inside the event that carries it) in `ends`. Reused across
 * runs (entries past `count` are stale): the scan appends. */
export interface RunText {
  count: number;
  readonly texts: string[];
  readonly ends: number[];
}

/** A fresh, empty {@link RunText}. */
export function runText(): RunText {
  return { count: 0, texts: [], ends: [] };
}

/** Appends a piece of text ending at `end`. */
export function addText(into: RunText, text: string, end: number): void {
  into.texts[into.count] = text;
  into.ends[into.count] = end;
  into.count++;
}

/** Where a wire's events carry generated text under their `"delta"` key. */
export interface DeltaShape {
  /** For wires that name their events: the names of the events whose delta is output text.
   * Absent: every event's delta may hold some (chat). */
  readonly events?: readonly string[];
  /** The delta is an object whose string values under these keys are output text. Absent:
   * the delta is the text itself, a string. */
  readonly keys?: readonly string[];
  /** A key of the delta object whose value (an array or object) holds more output text under
   * `holds` (chat's `tool_calls` → `arguments`). */
  readonly nested?: { readonly key: string; readonly holds: string };
}

/** Appends the string value at `p` (if it is one) to `into`; the offset after the value, or
 * {@link GIVE_UP}. */
function takeString(text: string, p: number, into: RunText): number {
  if (text.charCodeAt(p) !== QUOTE) return valueEnd(text, p);
  const end = stringEnd(text, p);
  if (end === GIVE_UP) return GIVE_UP;
  const value = decodeEnded(text, p, end);
  if (value === null) return GIVE_UP;
  if (value !== "") addText(into, value, end);
  return end;
}

/** Appends the text under every `"key":` inside `text[start, end)` (a value skipped whole). */
function takeAll(text: string, key: string, start: number, end: number, into: RunText): boolean {
  const pattern = keyPattern(key);
  pattern.lastIndex = start;
  while (pattern.test(text)) {
    if (pattern.lastIndex >= end) break;
    const value = valueAt(text, pattern);
    if (value === GIVE_UP) return false;
    const after = takeString(text, value, into);
    if (after === GIVE_UP) return false;
    pattern.lastIndex = after;
  }
  return true;
}

/** Whether the key literal `text[start, end)` (quotes included) is `key`. */
function isKey(text: string, start: number, end: number, key: string): boolean {
  return key.length === end - start - 2 && text.startsWith(key, start + 1);
}

/** Whether the key literal `text[start, end)` is one of `keys`. */
function isOneOf(text: string, start: number, end: number, keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) if (isKey(text, start, end, keys[i]!)) return true;
  return false;
}

/** Reads the delta object at `p`: appends the text under `shape.keys` (and under `nested`);
 * the offset after it, or {@link GIVE_UP}. */
function takeObject(text: string, p: number, shape: DeltaShape, into: RunText): number {
  if (text.charCodeAt(p) !== OPEN_BRACE) return valueEnd(text, p);
  const keys = shape.keys!;
  let at = skipSpace(text, p + 1);
  if (at !== GIVE_UP && text.charCodeAt(at) === CLOSE_BRACE) return at + 1;
  while (at !== GIVE_UP) {
    if (text.charCodeAt(at) !== QUOTE) return GIVE_UP;
    const keyEnd = stringEnd(text, at);
    if (keyEnd === GIVE_UP || endedEscaped()) return GIVE_UP;
    const value = valueAfterKey(text, keyEnd);
    if (value < 0) return GIVE_UP;
    let end: number;
    if (isOneOf(text, at, keyEnd, keys)) {
      end = takeString(text, value, into);
    } else {
      end = valueEnd(text, value);
      const nested = shape.nested;
      if (
        end !== GIVE_UP && nested !== undefined && isKey(text, at, keyEnd, nested.key) &&
        !takeAll(text, nested.holds, value, end, into)
      ) return GIVE_UP;
    }
    if (end === GIVE_UP) return GIVE_UP;
    at = skipSpace(text, end);
    if (at === GIVE_UP) return GIVE_UP;
    const c = text.charCodeAt(at);
    if (c === CLOSE_BRACE) return at + 1;
    if (c !== COMMA) return GIVE_UP;
    at = skipSpace(text, at + 1);
  }
  return GIVE_UP;
}

/** Whether the event starting at `start` of an LF-only run is named one of `names` by its
 * leading `event:` line; null when it has none. */
function namedOneOf(text: string, start: number, names: readonly string[]): boolean | null {
  if (!text.startsWith("event:", start)) return null;
  start += text.charCodeAt(start + 6) === SPACE ? 7 : 6;
  const end = text.indexOf("\n", start);
  const length = (end === -1 ? text.length : end) - start;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name.length === length && text.startsWith(name, start)) return true;
  }
  return false;
}

const DELTA_KEY = keyPattern("delta");

/** Reads the delta whose value starts at `value`: the offset after it, or {@link GIVE_UP}. */
function takeDelta(run: string, value: number, shape: DeltaShape, into: RunText): number {
  return shape.keys === undefined
    ? takeString(run, value, into)
    : takeObject(run, value, shape, into);
}

/** Chat: every `"delta":` in the run, in order. */
function scanEvery(run: string, shape: DeltaShape, into: RunText): boolean {
  const pattern = DELTA_KEY;
  pattern.lastIndex = 0;
  while (pattern.test(run)) {
    const value = valueAt(run, pattern);
    if (value === GIVE_UP) return false;
    const after = takeDelta(run, value, shape, into);
    if (after === GIVE_UP) return false;
    pattern.lastIndex = after;
  }
  return true;
}

/** Wires that name their events: event by event, the first `"delta":` of those named in
 * `names` (their top-level one: it comes before any other in these events). */
function scanNamed(run: string, names: readonly string[], shape: DeltaShape, into: RunText) {
  if (run.includes("\r")) return false;
  const pattern = DELTA_KEY;
  for (let start = 0; start < run.length;) {
    const boundary = run.indexOf("\n\n", start);
    const end = boundary === -1 ? run.length : boundary + 2;
    const named = namedOneOf(run, start, names);
    if (named === null) {
      // Only an event with no data (a comment, a blank line) may go without a name.
      const data = run.indexOf("data", start);
      if (data !== -1 && data < end) return false;
    } else if (named) {
      pattern.lastIndex = start;
      if (pattern.test(run) && pattern.lastIndex < end) {
        const value = valueAt(run, pattern);
        if (value === GIVE_UP || takeDelta(run, value, shape, into) === GIVE_UP) return false;
      }
    }
    start = end;
  }
  return true;
}

/** Appends the output text of the complete events in `run` to `into`, in order. False when the
 * run holds something the scan does not read exactly (what it appended is then incomplete:
 * the caller empties it and parses the run's events instead). */
export function scanDeltas(run: string, shape: DeltaShape, into: RunText): boolean {
  return shape.events === undefined
    ? scanEvery(run, shape, into)
    : scanNamed(run, shape.events, shape, into);
}

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/g;

/** The offset just past the event holding offset `at` of a run of complete events. */
export function eventEndAfter(run: string, at: number): number {
  BOUNDARY.lastIndex = at;
  const match = BOUNDARY.exec(run);
  return match === null ? run.length : match.index + match[0].length;
}
