// @ts-check
/**
 * Minimal textual edit of Continue's config.yaml: the gatehouse models live in one marked block
 * inside the top-level `models:` list. A re-run replaces that block only; other models, keys,
 * comments and formatting stay byte for byte.
 * @module
 */
import { lineEnding, SetupError } from "./common.mjs";

const BEGIN = "# >>> gatehouse models";
const END = "# <<< gatehouse models";
const BEGIN_NOTE = " (written by gatehouse-setup: re-run it to update, --rollback to undo)";

/** @typedef {Record<string, string | number | string[]>} YamlEntry */

/**
 * Puts `entries` into the `models:` list of a Continue config.yaml (created when `text` is
 * null) and returns the new text.
 * @param {string | null} text
 * @param {YamlEntry[]} entries
 * @param {string} name The file, for messages.
 * @returns {string}
 */
export function setContinueModels(text, entries, name) {
  if (text === null || text.trim() === "") {
    return `name: Local Config\nversion: 1.0.0\nschema: v1\nmodels:\n${block(entries, "  ", "\n")}`;
  }
  const eol = lineEnding(text);
  const lines = text.split(/(?<=\n)/);
  const begin = lines.findIndex((line) => line.trim().startsWith(BEGIN));
  const end = lines.findIndex((line, n) => n > begin && line.trim().startsWith(END));
  if (begin !== -1 || lines.some((line) => line.trim().startsWith(END))) {
    if (begin === -1 || end === -1) {
      throw new SetupError(
        `${name} has only one of the "${BEGIN}" / "${END}" marker lines: restore or delete both, ` +
          "then run again.",
      );
    }
    const indent = /^[ \t]*/.exec(lines[begin] ?? "")?.[0] ?? "";
    return [...lines.slice(0, begin), block(entries, indent, eol), ...lines.slice(end + 1)].join(
      "",
    );
  }
  const key = lines.findIndex((line) => /^models\s*:/.test(line));
  if (key === -1) {
    const body = text.endsWith("\n") ? text : text + eol;
    return `${body}models:${eol}${block(entries, "  ", eol)}`;
  }
  const rest = (lines[key] ?? "").replace(/^models\s*:/, "").trim();
  if (/^\[\s*\](\s+#.*)?$/.test(rest)) {
    lines[key] = `models:${eol}${block(entries, "  ", eol)}`;
    return lines.join("");
  }
  if (rest !== "" && !rest.startsWith("#")) {
    throw new SetupError(
      `${name} writes models: as a one-line value (${rest.slice(0, 40)}); this script adds to a ` +
        "block list only: rewrite it as a list (one '- ' item per line), then run again.",
    );
  }
  const next = lines.slice(key + 1).find((line) =>
    line.trim() !== "" && !line.trim().startsWith("#")
  );
  const item = next === undefined ? null : /^([ \t]*)- /.exec(next);
  const indent = item ? item[1] ?? "" : "  ";
  const head = (lines[key] ?? "").endsWith("\n") ? "" : eol;
  lines[key] = `${lines[key]}${head}${block(entries, indent, eol)}`;
  return lines.join("");
}

/**
 * @param {YamlEntry[]} entries
 * @param {string} indent
 * @param {string} eol
 * @returns {string}
 */
function block(entries, indent, eol) {
  const out = [`${indent}${BEGIN}${BEGIN_NOTE}`];
  for (const entry of entries) {
    let first = true;
    for (const [key, value] of Object.entries(entry)) {
      const lead = first ? `${indent}- ` : `${indent}  `;
      first = false;
      if (Array.isArray(value)) {
        out.push(`${lead}${key}:`);
        for (const item of value) out.push(`${indent}    - ${scalar(item)}`);
      } else out.push(`${lead}${key}: ${scalar(value)}`);
    }
  }
  out.push(`${indent}${END}`);
  return out.join(eol) + eol;
}

/**
 * A YAML scalar: numbers as written, words that need no quotes bare, everything else as a
 * double-quoted (JSON) string.
 * @param {string | number} value
 * @returns {string}
 */
function scalar(value) {
  if (typeof value === "number") return String(value);
  if (/^[a-z][a-z_]*$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(value)) {
    return value;
  }
  return JSON.stringify(value);
}
