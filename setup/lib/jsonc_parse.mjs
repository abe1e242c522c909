// @ts-check
/**
 * A JSON-with-comments parser that keeps the offsets of every value and member, for the
 * minimal textual edits of `jsonc.mjs`. Accepts comments and trailing commas (Zed, VS Code).
 * @module
 */
import { SetupError } from "./common.mjs";

/** @typedef {{ kind: "object", start: number, end: number, members: JsonMember[] }} JsonObject */
/** @typedef {{ kind: "array", start: number, end: number, items: JsonNode[] }} JsonArray */
/** @typedef {{ kind: "scalar", start: number, end: number, value: unknown }} JsonScalar */
/** @typedef {JsonObject | JsonArray | JsonScalar} JsonNode */
/** @typedef {{ key: string, start: number, value: JsonNode }} JsonMember */

const NUMBER_OR_WORD = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/**
 * Parses JSON with comments and trailing commas, keeping offsets. Throws a `SetupError` naming
 * `name`, the line and the column of the first problem.
 * @param {string} text
 * @param {string} name The file, for messages.
 * @returns {JsonNode}
 */
export function parseJsonc(text, name) {
  let i = 0;
  /** @param {string} what @returns {never} */
  const fail = (what) => {
    const before = text.slice(0, i).split("\n");
    throw new SetupError(
      `${name} is not valid JSON (line ${before.length}, column ${before.at(-1)?.length ?? 0}` +
        `: ${what}); this script edits only files it can read: fix or move it, then run again.`,
    );
  };
  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i] ?? "")) i++;
      if (text.startsWith("//", i)) {
        const end = text.indexOf("\n", i);
        i = end === -1 ? text.length : end;
      } else if (text.startsWith("/*", i)) {
        const end = text.indexOf("*/", i + 2);
        if (end === -1) fail("unterminated comment");
        i = end + 2;
      } else return;
    }
  };
  /** @returns {string} */
  const string = () => {
    const start = i++;
    while (i < text.length) {
      const c = text[i];
      if (c === "\\") i += 2;
      else if (c === "\n") fail("line break inside a string");
      else if (c === '"') {
        i++;
        try {
          return JSON.parse(text.slice(start, i));
        } catch {
          fail("bad escape in a string");
        }
      } else i++;
    }
    return fail("unterminated string");
  };
  /** @returns {JsonNode} */
  const value = () => {
    skip();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      /** @type {JsonMember[]} */
      const members = [];
      for (;;) {
        skip();
        if (text[i] === "}") return { kind: "object", start, end: ++i, members };
        if (text[i] !== '"') fail('expected a "key" or }');
        const keyStart = i;
        const key = string();
        skip();
        if (text[i] !== ":") fail("expected :");
        i++;
        members.push({ key, start: keyStart, value: value() });
        skip();
        if (text[i] === ",") i++;
        else if (text[i] !== "}") fail("expected , or }");
      }
    }
    if (c === "[") {
      i++;
      /** @type {JsonNode[]} */
      const items = [];
      for (;;) {
        skip();
        if (text[i] === "]") return { kind: "array", start, end: ++i, items };
        items.push(value());
        skip();
        if (text[i] === ",") i++;
        else if (text[i] !== "]") fail("expected , or ]");
      }
    }
    if (c === '"') return { kind: "scalar", start, value: string(), end: i };
    NUMBER_OR_WORD.lastIndex = i;
    const match = NUMBER_OR_WORD.exec(text);
    if (!match) return fail("expected a value");
    i += match[0].length;
    return { kind: "scalar", start, end: i, value: JSON.parse(match[0]) };
  };
  const root = value();
  skip();
  if (i < text.length) fail("unexpected text after the end");
  return root;
}

/**
 * The plain value of a node.
 * @param {JsonNode} node
 * @returns {unknown}
 */
export function toValue(node) {
  if (node.kind === "scalar") return node.value;
  if (node.kind === "array") return node.items.map(toValue);
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const member of node.members) out[member.key] = toValue(member.value);
  return out;
}
