import assert from "node:assert/strict";
import {
  decodeEnded,
  endedEscaped,
  GIVE_UP,
  keyPattern,
  skipSpace,
  stringEnd,
  valueAfterKey,
  valueAt,
  valueEnd,
} from "./json_text.ts";

Deno.test("stringEnd and decodeEnded: literals end at their unescaped quote and decode as JSON.parse", () => {
  for (
    const value of ["", "plain", 'q"uote', "back\\slash\\", "tab\tnew\nline", "é😀\u2028", "\ud83d"]
  ) {
    const text = `x${JSON.stringify(value)},`;
    const end = stringEnd(text, 1);
    assert.equal(end, text.length - 1, JSON.stringify(value));
    assert.equal(endedEscaped(), JSON.stringify(value).includes("\\"));
    assert.equal(decodeEnded(text, 1, end), value);
  }
  const surrogates = '"\\ud83d\\ude00 \\u00e9"';
  assert.equal(decodeEnded(surrogates, 0, stringEnd(surrogates, 0)), "😀 é");
  assert.equal(decodeEnded('"\\x"', 0, stringEnd('"\\x"', 0)), null, "a bad escape");
  assert.equal(stringEnd('"raw\ttab"', 0), GIVE_UP, "a raw control character");
  assert.equal(stringEnd('"no end', 0), GIVE_UP);
  const escapedBackslash = '"ends with \\\\"';
  assert.equal(stringEnd(escapedBackslash, 0), escapedBackslash.length, "an escaped backslash");
});

Deno.test("valueEnd: skips strings, nested objects and arrays, and scalars exactly", () => {
  const cases: Array<[string, string]> = [
    ['{"a":[1,{"b":"}]"}],"c":null}', ""],
    ['[{"x":"[\\"]"}, 2]', ""],
    ["12.5e3", ","],
    ["true", "}"],
    ["null", "]"],
    ['"s\\"tr"', ","],
  ];
  for (const [value, after] of cases) {
    const text = value + after + " rest";
    assert.equal(valueEnd(text, 0), value.length, value);
  }
  assert.equal(valueEnd('{"a":\n1}', 0), GIVE_UP, "a line break inside");
  assert.equal(valueEnd('{"a":1', 0), GIVE_UP, "no end");
});

Deno.test("skipSpace and valueAfterKey: spaces and tabs only; a line break gives up", () => {
  assert.equal(skipSpace(" \t x", 0), 3);
  assert.equal(skipSpace(" \n x", 0), GIVE_UP);
  assert.equal(valueAfterKey('"k" : "v"', 3), 6);
  assert.equal(valueAfterKey('"k","v"', 3), -1, "a value, not a key");
  assert.equal(valueAfterKey('"k":\n"v"', 3), GIVE_UP);
});

Deno.test("keyPattern and valueAt: the value after a matched key; a line break between gives up", () => {
  const pattern = keyPattern("delta");
  assert.equal(keyPattern("delta"), pattern, "made once");
  for (const [text, value] of [['{"delta":"x"}', 9], ['{"delta" :  "x"}', 12]] as const) {
    pattern.lastIndex = 0;
    assert.ok(pattern.test(text));
    assert.equal(valueAt(text, pattern), value);
  }
  pattern.lastIndex = 0;
  const split = '{"delta":\ndata: "x"}';
  assert.ok(pattern.test(split));
  assert.equal(valueAt(split, pattern), GIVE_UP);
  pattern.lastIndex = 0;
  assert.equal(pattern.test('{"note":"\\"delta\\": no"}'), false, "not inside a string");
});
