import assert from "node:assert/strict";
import { getJsonPath, removeJsonPath, setJsonPath } from "./jsonc.mjs";
import { parseJsonc } from "./jsonc_parse.mjs";

const F = "settings.json";

Deno.test("setJsonPath replaces one value and keeps every other byte", () => {
  const text = '{\n  "theme": "dark",  // mine\n  "env": {\n    "A": "1",\n    "B": "2"\n  }\n}\n';
  const out = setJsonPath(text, ["env", "A"], "x", F);
  assert.equal(out, text.replace('"A": "1"', '"A": "x"'));
});

Deno.test("setJsonPath adds a member after the last one with the file's indentation", () => {
  const text = '{\n    "env": {\n        "A": "1"\n    }\n}\n';
  assert.equal(
    setJsonPath(text, ["env", "B"], "2", F),
    '{\n    "env": {\n        "A": "1",\n        "B": "2"\n    }\n}\n',
  );
});

Deno.test("setJsonPath creates missing parents and fills an empty object", () => {
  assert.equal(setJsonPath("{}\n", ["env", "A"], "1", F), '{\n  "env": {\n    "A": "1"\n  }\n}\n');
  assert.equal(
    setJsonPath('{\n  "x": 1\n}', ["a", "b"], [1], F),
    '{\n  "x": 1,\n  "a": {\n    "b": [\n      1\n    ]\n  }\n}',
  );
});

Deno.test("setJsonPath keeps a trailing comma and a trailing line comment in JSONC", () => {
  const text = '{\n  // Zed settings\n  "ui_font_size": 16, // big\n}\n';
  assert.equal(
    setJsonPath(text, ["vim_mode"], true, F),
    '{\n  // Zed settings\n  "ui_font_size": 16, // big\n  "vim_mode": true,\n}\n',
  );
  const noComma = '{\n  "a": 1 // one\n}\n';
  assert.equal(setJsonPath(noComma, ["b"], 2, F), '{\n  "a": 1, // one\n  "b": 2\n}\n');
});

Deno.test("setJsonPath leaves the text alone when the value is already equal", () => {
  const text = '{"env":{"A":"1"}}';
  assert.equal(setJsonPath(text, ["env", "A"], "1", F), text);
});

Deno.test("setJsonPath keeps CRLF line endings", () => {
  const text = '{\r\n  "a": 1\r\n}\r\n';
  assert.equal(
    setJsonPath(text, ["b"], { c: 2 }, F),
    '{\r\n  "a": 1,\r\n  "b": {\r\n    "c": 2\r\n  }\r\n}\r\n',
  );
});

Deno.test("setJsonPath refuses to descend into a non-object", () => {
  assert.throws(() => setJsonPath('{"env": "x"}', ["env", "A"], "1", F), /"env" is not an object/);
});

Deno.test("removeJsonPath removes first, middle, last and only members cleanly", () => {
  const text = '{\n  "env": {\n    "A": "1",\n    "B": "2",\n    "C": "3"\n  }\n}\n';
  assert.equal(
    removeJsonPath(text, ["env", "A"], F),
    '{\n  "env": {\n    "B": "2",\n    "C": "3"\n  }\n}\n',
  );
  assert.equal(
    removeJsonPath(text, ["env", "B"], F),
    '{\n  "env": {\n    "A": "1",\n    "C": "3"\n  }\n}\n',
  );
  assert.equal(
    removeJsonPath(text, ["env", "C"], F),
    '{\n  "env": {\n    "A": "1",\n    "B": "2"\n  }\n}\n',
  );
  assert.equal(
    removeJsonPath('{\n  "env": {\n    "A": "1"\n  }\n}\n', ["env", "A"], F),
    '{\n  "env": {}\n}\n',
  );
  assert.equal(removeJsonPath('{"a": 1, "b": 2}', ["a"], F), '{"b": 2}');
  assert.equal(removeJsonPath(text, ["env", "Z"], F), text);
  assert.equal(removeJsonPath(text, ["nope", "Z"], F), text);
});

Deno.test("removeJsonPath removes duplicates too", () => {
  assert.equal(removeJsonPath('{"a": 1, "b": 2, "a": 3}', ["a"], F), '{"b": 2}');
});

Deno.test("set then remove round-trips to the original bytes", () => {
  const text = '{\n  "permissions": { "allow": ["Bash(ls)"] },\n  "env": {\n    "X": "y"\n  }\n}\n';
  const added = setJsonPath(text, ["env", "NEW"], "v", F);
  assert.equal(removeJsonPath(added, ["env", "NEW"], F), text);
});

Deno.test("parseJsonc and getJsonPath read values; errors name line and column", () => {
  assert.deepEqual(getJsonPath('{"a": {"b": [1, {"c": null}]}}', ["a", "b"], F), [1, { c: null }]);
  assert.equal(getJsonPath('{"a": 1}', ["a", "b"], F), undefined);
  assert.throws(
    () => parseJsonc('{\n  "a": 1,\n  b: 2\n}', F),
    /settings\.json is not valid JSON \(line 3, column 2/,
  );
  assert.throws(() => parseJsonc('{"a": "x', F), /unterminated string/);
  assert.throws(() => setJsonPath("[1]", ["a"], 1, F), /does not hold a JSON object/);
});
