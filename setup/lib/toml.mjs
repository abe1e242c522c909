// @ts-check
/**
 * Minimal textual edits of a TOML file (Codex's config.toml): `setTomlKey` rewrites one value in
 * place, adds a missing key to its table, or appends a missing table, working from the statements
 * `toml_scan.mjs` finds. Comments, other keys and other tables stay byte for byte.
 * @module
 */
import { lineEnding, SetupError } from "./common.mjs";
import { scanToml } from "./toml_scan.mjs";

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
  const existing = statements.findLast((s) =>
    s.kind === "key" && same(s.table, table) && same(s.path, [key])
  );
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
    if (firstTable) {
      return text.slice(0, firstTable.start) + line + eol + text.slice(firstTable.start);
    }
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
