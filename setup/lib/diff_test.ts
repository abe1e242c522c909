import assert from "node:assert/strict";
import { lineDiff } from "./diff.mjs";

Deno.test("lineDiff shows changed lines in hunks with their line numbers", () => {
  assert.deepEqual(lineDiff("a\nb\nc\n", "a\nb\nc\n"), []);
  assert.deepEqual(lineDiff("a\nb\nc\n", "a\nB\nc\n"), ["@@ line 2", "+ B", "- b"]);
  assert.deepEqual(lineDiff("", "x\ny\n"), ["@@ line 1", "+ x", "+ y"]);
  assert.deepEqual(lineDiff("a\nb\nc\nd\n", "a\nc\nd\ne\n"), [
    "@@ line 2",
    "- b",
    "@@ line 5",
    "+ e",
  ]);
});
