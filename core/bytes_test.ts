import assert from "node:assert/strict";
import { concatBytes } from "./bytes.ts";

Deno.test("concatBytes joins in order into a fresh array", () => {
  const a = Uint8Array.of(1, 2);
  const joined = concatBytes([a, new Uint8Array(0), Uint8Array.of(3)]);
  assert.deepEqual([...joined], [1, 2, 3]);
  assert.notEqual(joined.buffer, a.buffer);
  assert.equal(concatBytes([]).length, 0);
});
