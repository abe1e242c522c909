import assert from "node:assert/strict";
import { fakeId, firstLine, splitPieces, wordPieces } from "./scripted_text.ts";
import { countTokensBody, estimateTokens } from "./tokens.ts";

Deno.test("fakeId: provider-shaped, deterministic per seed", () => {
  assert.match(fakeId("toolu_01", "s", 22), /^toolu_01[0-9A-Za-z]{22}$/);
  assert.match(fakeId("resp_", "s", 50, "hex"), /^resp_[0-9a-f]{50}$/);
  assert.equal(fakeId("call_", "seed", 24), fakeId("call_", "seed", 24));
  assert.notEqual(fakeId("call_", "seed-1", 24), fakeId("call_", "seed-2", 24));
});

Deno.test("wordPieces / splitPieces keep every character", () => {
  assert.deepEqual(wordPieces("Tool said: x y"), ["Tool", " said:", " x", " y"]);
  assert.deepEqual(wordPieces(""), [""]);
  assert.deepEqual(splitPieces('{"cmd":"ls"}'), ['{"cm', 'd":"', 'ls"}']);
  assert.deepEqual(splitPieces("{}"), ["{", "}"]);
  assert.deepEqual(splitPieces("a😀b"), ["a", "😀", "b"]);
});

Deno.test("firstLine and token estimates", () => {
  assert.equal(firstLine("a\r\nb"), "a");
  assert.equal(firstLine(""), "");
  assert.equal(estimateTokens("abcde"), 2);
  assert.equal(estimateTokens("é"), 1);
  assert.deepEqual(countTokensBody('{"a":1}'), { input_tokens: 2 });
});
