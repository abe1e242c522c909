import assert from "node:assert/strict";
import { copyOut } from "./body_stream.ts";

Deno.test("copyOut: copies stay intact when the read buffer is reused, small or large", () => {
  const buffer = new Uint8Array(4096);
  const copies: Array<[Uint8Array, number, number]> = [];
  // Enough small copies to fill several slabs, and some too large to be carved.
  for (let i = 0; i < 200; i++) {
    const size = i % 10 === 9 ? 1500 + i : 1 + ((i * 37) % 400);
    buffer.fill(i % 251, 0, size);
    const parts = i % 3 === 0 ? [buffer.subarray(0, 1), buffer.subarray(1, size)] : [
      buffer.subarray(0, size),
    ];
    copies.push([copyOut(parts), size, i % 251]);
  }
  buffer.fill(255);
  for (const [copy, size, value] of copies) {
    assert.equal(copy.length, size);
    assert.ok(copy.every((byte) => byte === value), `a copy of ${size} bytes kept its bytes`);
  }
});
