import assert from "node:assert/strict";
import { parseJsonc, stripJsonc } from "./jsonc.ts";

Deno.test("parseJsonc accepts line and block comments and trailing commas", () => {
  const text = `{
    // the providers
    "a": [1, 2, /* two */ 3,],
    "b": { "c": "x", }, /* trailing
    block */
  }`;
  assert.deepEqual(parseJsonc(text), { a: [1, 2, 3], b: { c: "x" } });
});

Deno.test("parseJsonc leaves comment markers and commas inside strings alone", () => {
  const text = '{ "url": "http://h/v1", "s": "a /* b */ c,}", "q": "say \\"//\\"" }';
  assert.deepEqual(parseJsonc(text), {
    url: "http://h/v1",
    s: "a /* b */ c,}",
    q: 'say "//"',
  });
});

Deno.test("stripJsonc keeps every position, so JSON.parse errors point at the original text", () => {
  const text = '{\n  // note\n  "a": 1\n  "b": 2\n}';
  assert.equal(stripJsonc(text).length, text.length);
  assert.throws(() => parseJsonc(text), /line 4 column 3/);
});

Deno.test("parseJsonc rejects a double comma and an unterminated block comment", () => {
  assert.throws(() => parseJsonc("[1,,]"), SyntaxError);
  assert.throws(
    () => parseJsonc('{\n  "a": 1 /* open'),
    /Unterminated \/\* comment .*line 2 column 10/,
  );
});

Deno.test("parseJsonc skips a byte-order mark", () => {
  assert.deepEqual(parseJsonc('\uFEFF{"a": true}'), { a: true });
});

Deno.test("parseJsonc names the line and column of each kind of syntax error", () => {
  const cases: [string, string][] = [
    ['{\n  "a": 1\n  "b": 2\n}', "expected ',' or '}' at line 3 column 3"],
    ['{"a" 1}', "expected ':' after the property name at line 1 column 6"],
    ["{a: 1}", "expected a double-quoted string at line 1 column 2"],
    ["[1, 2", "unexpected end of input at line 1 column 6"],
    ['{"a": tru}', 'unexpected "t", expected a value at line 1 column 7'],
    ['"a\nb"', "invalid character or escape in string at line 1 column 3"],
    ["[1] 2", "unexpected text after the end of the JSON value at line 1 column 5"],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseJsonc(text), { name: "SyntaxError", message }, text);
  }
});
