// @ts-check
/**
 * A TOML statement scanner for the minimal edits of `toml.mjs`: table headers and key/value
 * statements with their offsets, skipping multi-line strings, arrays and inline tables.
 * @module
 */
import { SetupError } from "./common.mjs";

/**
 * @typedef {object} TomlStatement
 * @property {"table" | "key"} kind
 * @property {string[]} path A table's path, or a key's path relative to its table.
 * @property {string[]} table The table a key belongs to.
 * @property {number} start Offset of the statement's first character.
 * @property {number} end Offset just after its last line's line break.
 * @property {number} valueStart Offset of a key's value.
 * @property {number} valueEnd Offset just after a key's value (before a trailing comment).
 * @property {boolean} arrayTable `[[name]]`.
 */

/**
 * Splits a TOML text into table headers and key/value statements. Throws a `SetupError` when
 * a line is neither.
 * @param {string} text
 * @param {string} name The file, for messages.
 * @returns {TomlStatement[]}
 */
export function scanToml(text, name) {
  /** @type {TomlStatement[]} */
  const out = [];
  /** @type {string[]} */
  let table = [];
  let i = 0;
  while (i < text.length) {
    const lineEnd = nextLine(text, i);
    const line = text.slice(i, lineEnd);
    const trimmed = line.trim();
    const start = i + line.length - line.trimStart().length;
    if (trimmed === "" || trimmed.startsWith("#")) {
      i = lineEnd;
      continue;
    }
    if (trimmed.startsWith("[")) {
      const arrayTable = trimmed.startsWith("[[");
      const close = arrayTable ? "]]" : "]";
      const { path, next } = readKey(text, start + (arrayTable ? 2 : 1), name);
      if (!text.startsWith(close, next)) fail(name, text, next, `expected ${close}`);
      table = path;
      out.push({
        kind: "table",
        path,
        table,
        start,
        end: lineEnd,
        valueStart: 0,
        valueEnd: 0,
        arrayTable,
      });
      i = lineEnd;
      continue;
    }
    const { path, next } = readKey(text, start, name);
    if (text[next] !== "=") fail(name, text, next, "expected = after the key");
    let j = next + 1;
    while (text[j] === " " || text[j] === "\t") j++;
    const valueStart = j;
    const valueEnd = skipValue(text, j, name);
    out.push({
      kind: "key",
      path,
      table,
      start,
      end: nextLine(text, valueEnd),
      valueStart,
      valueEnd,
      arrayTable: false,
    });
    i = nextLine(text, valueEnd);
  }
  return out;
}

/**
 * @param {string} text
 * @param {number} i
 * @returns {number} The offset after the line break ending the line at `i`.
 */
function nextLine(text, i) {
  const nl = text.indexOf("\n", i);
  return nl === -1 ? text.length : nl + 1;
}

/**
 * Reads a dotted key (bare, "basic" or 'literal' parts) starting at `i`.
 * @param {string} text
 * @param {number} i
 * @param {string} name
 * @returns {{ path: string[], next: number }}
 */
function readKey(text, i, name) {
  /** @type {string[]} */
  const path = [];
  for (;;) {
    while (text[i] === " " || text[i] === "\t") i++;
    const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(i, i + 256));
    if (bare) {
      path.push(bare[0]);
      i += bare[0].length;
    } else if (text[i] === '"' || text[i] === "'") {
      const end = skipString(text, i, name);
      const raw = text.slice(i, end);
      path.push(raw.startsWith('"') ? JSON.parse(raw) : raw.slice(1, -1));
      i = end;
    } else fail(name, text, i, "expected a key");
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] !== ".") return { path, next: i };
    i++;
  }
}

/**
 * Skips a value (strings, multi-line strings, nested arrays and inline tables included) and
 * returns the offset after it, before any trailing comment.
 * @param {string} text
 * @param {number} i
 * @param {string} name
 * @returns {number}
 */
function skipValue(text, i, name) {
  let depth = 0;
  let end = i;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = skipString(text, i, name);
      end = i;
    } else if (c === "[" || c === "{") {
      depth++;
      end = ++i;
    } else if (c === "]" || c === "}") {
      depth--;
      end = ++i;
    } else if (c === "#") {
      i = text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i);
    } else if (c === "\n") {
      if (depth <= 0) return end;
      i++;
    } else {
      if (!/\s|,/.test(c ?? "") || depth > 0) end = i + 1;
      i++;
    }
  }
  if (depth > 0) fail(name, text, i, "unclosed [ or {");
  return end;
}

/**
 * @param {string} text
 * @param {number} i At the opening quote.
 * @param {string} name
 * @returns {number} The offset after the closing quote.
 */
function skipString(text, i, name) {
  const quote = text[i] ?? "";
  const triple = text.startsWith(quote.repeat(3), i);
  if (triple) {
    let j = i + 3;
    for (;;) {
      const close = text.indexOf(quote.repeat(3), j);
      if (close === -1) fail(name, text, i, "unterminated multi-line string");
      if (quote === '"' && isEscaped(text, close)) {
        j = close + 1;
        continue;
      }
      let after = close + 3;
      while (text[after] === quote && after < close + 5) after++;
      return after;
    }
  }
  let j = i + 1;
  while (j < text.length && text[j] !== "\n") {
    if (quote === '"' && text[j] === "\\") j += 2;
    else if (text[j] === quote) return j + 1;
    else j++;
  }
  return fail(name, text, i, "unterminated string");
}

/**
 * @param {string} text
 * @param {number} at
 * @returns {boolean} Whether the character at `at` follows an odd run of backslashes.
 */
function isEscaped(text, at) {
  let n = 0;
  while (text[at - 1 - n] === "\\") n++;
  return n % 2 === 1;
}

/**
 * @param {string} name
 * @param {string} text
 * @param {number} at
 * @param {string} what
 * @returns {never}
 */
function fail(name, text, at, what) {
  const line = text.slice(0, at).split("\n").length;
  throw new SetupError(
    `${name} is not TOML this script can edit (line ${line}: ${what}); fix it or move it away, ` +
      "then run again.",
  );
}
