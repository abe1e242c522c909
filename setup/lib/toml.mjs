// @ts-check
/**
 * Minimal textual edits of a TOML file (Codex's config.toml): a statement scanner that knows
 * tables, keys, multi-line strings and arrays, and a `setTomlKey` that rewrites one value in
 * place, adds a missing key to its table, or appends a missing table. Comments, other keys and
 * other tables stay byte for byte.
 * @module
 */
import { lineEnding, SetupError } from "./common.mjs";

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
      out.push({ kind: "table", path, table, start, end: lineEnd, valueStart: 0, valueEnd: 0, arrayTable });
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
      kind: "key", path, table, start, end: nextLine(text, valueEnd), valueStart, valueEnd,
      arrayTable: false,
    });
    i = nextLine(text, valueEnd);
  }
  return out;
}

/**
 * Sets `key = literal` in the table `table` (`[]` for the top level) and returns the new text.
 * An equal value is left as written; a missing key is added after the table's last key; a
 * missing table is appended at the end.
 * @param {string} text
 * @param {string[]} table
 * @param {string} key
 * @param {string | boolean} value
 * @param {string} name
 * @returns {string}
 */
export function setTomlKey(text, table, key, value, name) {
  const statements = scanToml(text, name);
  const literal = typeof value === "string" ? JSON.stringify(value) : String(value);
  const eol = lineEnding(text);
  const same = (/** @type {string[]} */ a, /** @type {string[]} */ b) =>
    a.length === b.length && a.every((part, n) => part === b[n]);
  for (const s of table.length === 0 ? [] : statements) {
    const full = [...s.table, ...s.path];
    const clash = s.kind === "key" && s.path.length > 1 && startsWith(full, table) ||
      s.kind === "key" && full.length <= table.length && startsWith(table, full);
    if (clash && !(s.kind === "key" && same(s.table, table))) {
      throw new SetupError(
        `${name} defines ${full.join(".")} as a dotted key or inline table; this script edits ` +
          `[${table.join(".")}] as a table only: rewrite that entry as a table, then run again.`,
      );
    }
  }
  const existing = statements.findLast((s) => s.kind === "key" && same(s.table, table) && same(s.path, [key]));
  if (existing) {
    if (scalarValue(text.slice(existing.valueStart, existing.valueEnd)) === JSON.stringify(value)) {
      return text;
    }
    return text.slice(0, existing.valueStart) + literal + text.slice(existing.valueEnd);
  }
  const line = `${key} = ${literal}${eol}`;
  if (table.length === 0) {
    const firstTable = statements.find((s) => s.kind === "table");
    const lastRootKey = statements.filter((s) => s.kind === "key" && s.table.length === 0).at(-1);
    if (lastRootKey) return insertAt(text, lastRootKey.end, line, eol);
    if (firstTable) return text.slice(0, firstTable.start) + line + eol + text.slice(firstTable.start);
    return insertAt(text, text.length, line, eol);
  }
  const header = statements.find((s) => s.kind === "table" && !s.arrayTable && same(s.path, table));
  if (header === undefined) {
    const body = text === "" || text.endsWith("\n") ? text : text + eol;
    const gap = body.trim() === "" ? "" : eol;
    return `${body}${gap}[${table.join(".")}]${eol}${line}`;
  }
  const index = statements.indexOf(header);
  const nextTable = statements.slice(index + 1).find((s) => s.kind === "table");
  const keys = statements.slice(index + 1, nextTable ? statements.indexOf(nextTable) : undefined);
  return insertAt(text, (keys.at(-1) ?? header).end, line, eol);
}

/**
 * @param {string[]} list
 * @param {string[]} prefix
 * @returns {boolean}
 */
function startsWith(list, prefix) {
  return prefix.every((part, n) => list[n] === part);
}

/**
 * Inserts a line at `offset`, first ending an unterminated last line.
 * @param {string} text
 * @param {number} offset
 * @param {string} line
 * @param {string} eol
 * @returns {string}
 */
function insertAt(text, offset, line, eol) {
  const before = text.slice(0, offset);
  const lead = before === "" || before.endsWith("\n") ? "" : eol;
  return before + lead + line + text.slice(offset);
}

/**
 * A basic or literal string, boolean or integer written as its JSON form, for comparison;
 * null for anything else.
 * @param {string} raw
 * @returns {string | null}
 */
export function scalarValue(raw) {
  const text = raw.trim();
  if (/^"(?:[^"\\\n]|\\.)*"$/.test(text)) {
    try {
      return JSON.stringify(JSON.parse(text));
    } catch {
      return null;
    }
  }
  if (/^'[^'\n]*'$/.test(text)) return JSON.stringify(text.slice(1, -1));
  if (text === "true" || text === "false") return text;
  return null;
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
