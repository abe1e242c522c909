// @ts-check
/**
 * Minimal textual edits of JSON and JSONC files (Claude Code's and Zed's settings, Codex's
 * auth.json): set/remove operations, working from the offsets `jsonc_parse.mjs` keeps, that
 * rewrite only the member they touch. Everything else — other keys, their order, comments, indentation,
 * trailing commas — stays byte for byte.
 * @module
 */
import { lineEnding, SetupError } from "./common.mjs";
import { parseJsonc, toValue } from "./jsonc_parse.mjs";

/** @typedef {import("./jsonc_parse.mjs").JsonObject} JsonObject */
/** @typedef {import("./jsonc_parse.mjs").JsonNode} JsonNode */
/** @typedef {import("./jsonc_parse.mjs").JsonMember} JsonMember */

/**
 * The value at `path` in a JSON(C) text, or undefined.
 * @param {string} text
 * @param {string[]} path
 * @param {string} name
 * @returns {unknown}
 */
export function getJsonPath(text, path, name) {
  /** @type {JsonNode | undefined} */
  let node = parseRoot(text, name);
  for (const key of path) {
    node = node?.kind === "object" ? lastMember(node, key)?.value : undefined;
  }
  return node === undefined ? undefined : toValue(node);
}

/**
 * Sets the value at `path` (creating missing objects on the way) and returns the new text; the
 * text is returned unchanged when the value is already equal.
 * @param {string} text
 * @param {string[]} path
 * @param {unknown} value
 * @param {string} name
 * @returns {string}
 */
export function setJsonPath(text, path, value, name) {
  let node = parseRoot(text, name);
  for (let depth = 0; depth < path.length; depth++) {
    const key = /** @type {string} */ (path[depth]);
    const member = lastMember(node, key);
    if (member === undefined) {
      let nested = value;
      for (let k = path.length - 1; k > depth; k--) nested = { [String(path[k])]: nested };
      return insertMember(text, node, key, nested);
    }
    if (depth === path.length - 1) {
      if (JSON.stringify(toValue(member.value)) === JSON.stringify(value)) return text;
      const rendered = render(value, indentOf(text, member.start), text);
      return text.slice(0, member.value.start) + rendered + text.slice(member.value.end);
    }
    if (member.value.kind !== "object") {
      throw new SetupError(
        `${name}: "${
          path.slice(0, depth + 1).join(".")
        }" is not an object, so this script cannot ` +
          "add its settings inside it: fix that entry by hand, then run again.",
      );
    }
    node = member.value;
  }
  return text;
}

/**
 * Removes the member at `path` (every duplicate of it) and returns the new text; unchanged when
 * it is absent.
 * @param {string} text
 * @param {string[]} path
 * @param {string} name
 * @returns {string}
 */
export function removeJsonPath(text, path, name) {
  for (;;) {
    /** @type {JsonNode | undefined} */
    let node = parseRoot(text, name);
    for (const key of path.slice(0, -1)) {
      node = node?.kind === "object" ? lastMember(node, key)?.value : undefined;
    }
    if (node?.kind !== "object") return text;
    const index = node.members.findIndex((m) => m.key === path.at(-1));
    if (index === -1) return text;
    text = removeMember(text, node, index);
  }
}

/**
 * @param {string} text
 * @param {string} name
 * @returns {JsonObject}
 */
function parseRoot(text, name) {
  const root = parseJsonc(text, name);
  if (root.kind !== "object") {
    throw new SetupError(`${name} does not hold a JSON object: fix or move it, then run again.`);
  }
  return root;
}

/**
 * JSON keeps the last of duplicate keys; so do we.
 * @param {JsonObject} node
 * @param {string} key
 * @returns {JsonMember | undefined}
 */
function lastMember(node, key) {
  return node.members.findLast((m) => m.key === key);
}

/**
 * @param {string} text
 * @param {JsonObject} node
 * @param {string} key
 * @param {unknown} value
 * @returns {string}
 */
function insertMember(text, node, key, value) {
  const eol = lineEnding(text);
  const last = node.members.at(-1);
  if (last === undefined) {
    const outer = indentOf(text, node.start);
    const inner = outer + indentUnit(text);
    const entry = `${JSON.stringify(key)}: ${render(value, inner, text)}`;
    const inside = text.slice(node.start + 1, node.end - 1);
    const head = text.slice(0, node.start + 1);
    if (inside.trim() === "") {
      return `${head}${eol}${inner}${entry}${eol}${outer}${text.slice(node.end - 1)}`;
    }
    return `${head}${eol}${inner}${entry},${text.slice(node.start + 1)}`;
  }
  const lineStart = text.lastIndexOf("\n", last.start - 1) + 1;
  const ownLine = text.slice(lineStart, last.start).trim() === "";
  const indent = ownLine ? text.slice(lineStart, last.start) : "";
  const entry = `${JSON.stringify(key)}: ${
    ownLine ? render(value, indent, text) : JSON.stringify(value)
  }`;
  const comma = afterTrivia(text, last.value.end);
  if (text[comma] === ",") {
    const at = restOfLine(text, comma + 1);
    return text.slice(0, at) + (ownLine ? `${eol}${indent}` : " ") + `${entry},` + text.slice(at);
  }
  const at = restOfLine(text, last.value.end);
  return text.slice(0, last.value.end) + "," + text.slice(last.value.end, at) +
    (ownLine ? `${eol}${indent}` : " ") + entry + text.slice(at);
}

/**
 * @param {string} text
 * @param {JsonObject} node
 * @param {number} index
 * @returns {string}
 */
function removeMember(text, node, index) {
  const member = /** @type {JsonMember} */ (node.members[index]);
  const lineStart = text.lastIndexOf("\n", member.start - 1) + 1;
  const ownLine = text.slice(lineStart, member.start).trim() === "";
  const after = afterTrivia(text, member.value.end);
  if (index < node.members.length - 1) {
    let end = after + 1;
    const nl = text.indexOf("\n", end);
    if (ownLine && nl !== -1 && text.slice(end, nl).trim() === "") {
      return text.slice(0, lineStart) + text.slice(nl + 1);
    }
    while (text[end] === " ") end++;
    return text.slice(0, member.start) + text.slice(end);
  }
  if (index > 0) {
    const previous = /** @type {JsonMember} */ (node.members[index - 1]);
    const comma = afterTrivia(text, previous.value.end);
    return text.slice(0, comma) + text.slice(member.value.end);
  }
  const end = text[after] === "," ? after + 1 : member.value.end;
  const rest = text.slice(0, member.start) + text.slice(end);
  const close = node.end - 1 - (end - member.start);
  const inside = rest.slice(node.start + 1, close);
  return inside.trim() === "" ? rest.slice(0, node.start + 1) + rest.slice(close) : rest;
}

/**
 * The offset of the next character that is not whitespace or a comment.
 * @param {string} text
 * @param {number} from
 * @returns {number}
 */
function afterTrivia(text, from) {
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] ?? "")) i++;
    if (text.startsWith("//", i)) {
      i = text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i);
    } else if (text.startsWith("/*", i)) i = text.indexOf("*/", i + 2) + 2;
    else return i;
  }
}

/**
 * Where to insert after `from` so that a trailing comment on that line stays on it: the end of
 * the line when only blanks or a comment follow, else `from` itself.
 * @param {string} text
 * @param {number} from
 * @returns {number}
 */
function restOfLine(text, from) {
  const nl = text.indexOf("\n", from);
  const end = nl === -1 ? text.length : text[nl - 1] === "\r" ? nl - 1 : nl;
  return /^[ \t]*(\/\/.*|\/\*.*\*\/[ \t]*)?$/.test(text.slice(from, end)) ? end : from;
}

/**
 * @param {string} text
 * @param {number} offset
 * @returns {string} The blanks that start the line holding `offset`.
 */
function indentOf(text, offset) {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
}

/**
 * @param {string} text
 * @returns {string} The file's indentation unit (two spaces when it has none).
 */
function indentUnit(text) {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
}

/**
 * @param {unknown} value
 * @param {string} indent The indentation of the line the value starts on.
 * @param {string} text The file, for its indentation unit and line ending.
 * @returns {string}
 */
function render(value, indent, text) {
  return JSON.stringify(value, null, indentUnit(text)).split("\n").join(lineEnding(text) + indent);
}
