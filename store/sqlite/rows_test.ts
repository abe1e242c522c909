import assert from "node:assert/strict";
import { num, numOrNull, text, textOrNull } from "./rows.ts";

Deno.test("rows: narrow column values and fail loudly on a mismatch", () => {
  const row = { s: "x", n: 3, big: 4n, none: null };
  assert.equal(text(row, "s"), "x");
  assert.equal(num(row, "n"), 3);
  assert.equal(num(row, "big"), 4);
  assert.equal(numOrNull(row, "none"), null);
  assert.equal(numOrNull(row, "n"), 3);
  assert.throws(() => text(row, "n"), /column "n" should be text, got number/);
  assert.throws(() => num(row, "s"), /column "s" should be a number/);
  assert.throws(() => num(row, "missing"), /column "missing"/);
});

Deno.test("rows: textOrNull reads a nullable TEXT column", () => {
  const row = { s: "x", none: null, n: 1 };
  assert.equal(textOrNull(row, "s"), "x");
  assert.equal(textOrNull(row, "none"), null);
  assert.throws(() => textOrNull(row, "n"), /column "n" should be text/);
});
