/**
 * JSON with comments (JSONC), as editors write it: `//` and `/* *\/` comments and trailing commas
 * are blanked out with spaces so positions still point into the original text, and a syntax
 * error says where it is (`line 4 column 1`), which V8's `JSON.parse` messages often do not.
 * @module
 */

/** Returns `text` with comments and trailing commas replaced by spaces (newlines are kept). */
export function stripJsonc(text: string): string {
  const out = text.split("");
  let pendingComma = -1;
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    const next = text[i + 1];
    if (char === '"') {
      pendingComma = -1;
      i = skipString(text, i);
    } else if (char === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") out[i++] = " ";
    } else if (char === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end === -1) {
        throw new SyntaxError(`Unterminated /* comment starting at ${lineColumn(text, i)}`);
      }
      for (; i < end + 2; i++) if (text[i] !== "\n" && text[i] !== "\r") out[i] = " ";
    } else {
      if (char === ",") pendingComma = i;
      else if ((char === "}" || char === "]") && pendingComma !== -1) out[pendingComma] = " ";
      if (char !== undefined && !/\s/.test(char) && char !== ",") pendingComma = -1;
      i++;
    }
  }
  return out.join("");
}

/** Parses JSONC. Throws `SyntaxError` naming the line and column of malformed input. */
export function parseJsonc(text: string): unknown {
  // A byte-order mark becomes a space so positions stay put.
  const json = stripJsonc(text.replace(/^\uFEFF/, " "));
  try {
    return JSON.parse(json);
  } catch (error) {
    const found = findSyntaxError(json);
    if (found === null) throw error;
    throw new SyntaxError(`${found.reason} at ${lineColumn(json, found.index)}`, { cause: error });
  }
}

/** Index just past the string literal that opens at `start`. */
function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === "\\") i += 2;
    else if (text[i] === '"') return i + 1;
    else i++;
  }
  return i;
}

function lineColumn(text: string, index: number): string {
  const before = text.slice(0, index).split("\n");
  return `line ${before.length} column ${(before.at(-1)?.length ?? 0) + 1}`;
}

class JsonSyntax {
  constructor(readonly index: number, readonly reason: string) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// JSON forbids raw control characters inside strings, so the class names them on purpose.
// deno-lint-ignore no-control-regex
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*/y;

/** Walks strict JSON and returns where and why it first goes wrong (null if it does not). */
function findSyntaxError(json: string): { index: number; reason: string } | null {
  let i = 0;
  const fail = (reason: string): never => {
    throw new JsonSyntax(i, i >= json.length ? "unexpected end of input" : reason);
  };
  const skipSpace = () => {
    while (i < json.length && " \t\n\r".includes(json[i] ?? "")) i++;
  };
  const expect = (char: string, reason: string) => {
    skipSpace();
    if (json[i] !== char) fail(reason);
    i++;
  };
  const string = () => {
    expect('"', "expected a double-quoted string");
    STRING_BODY.lastIndex = i;
    STRING_BODY.exec(json);
    i = STRING_BODY.lastIndex;
    if (json[i] !== '"') fail("invalid character or escape in string");
    i++;
  };
  const value = (): void => {
    skipSpace();
    const char = json[i];
    if (char === "{") {
      i++;
      skipSpace();
      if (json[i] === "}") return void i++;
      do {
        string();
        expect(":", "expected ':' after the property name");
        value();
        skipSpace();
      } while (json[i] === "," && ++i);
      expect("}", "expected ',' or '}'");
    } else if (char === "[") {
      i++;
      skipSpace();
      if (json[i] === "]") return void i++;
      do {
        value();
        skipSpace();
      } while (json[i] === "," && ++i);
      expect("]", "expected ',' or ']'");
    } else if (char === '"') {
      string();
    } else {
      const literal = ["true", "false", "null"].find((word) => json.startsWith(word, i));
      if (literal !== undefined) return void (i += literal.length);
      NUMBER.lastIndex = i;
      if (NUMBER.exec(json) === null) fail(`unexpected ${JSON.stringify(char)}, expected a value`);
      i = NUMBER.lastIndex;
    }
  };
  try {
    value();
    skipSpace();
    if (i < json.length) fail("unexpected text after the end of the JSON value");
    return null;
  } catch (error) {
    if (error instanceof JsonSyntax) return { index: error.index, reason: error.reason };
    throw error;
  }
}
