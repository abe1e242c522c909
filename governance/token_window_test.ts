import assert from "node:assert/strict";
import { TokenWindow } from "./token_window.ts";

Deno.test("TokenWindow: entries count at admission time for 60 s", () => {
  const window = new TokenWindow();
  window.add(0, 600);
  window.add(30_000, 300);
  assert.equal(window.used(59_999), 900);
  assert.equal(window.used(60_000), 300);
  assert.equal(window.used(90_000), 0);
  assert.ok(window.empty(90_000));
});

Deno.test("TokenWindow: settling replaces the estimate with the real tokens", () => {
  const window = new TokenWindow();
  const entry = window.add(0, 1_000);
  assert.equal(window.used(1), 1_000);
  window.settle(entry, 2_500); // real input + output
  assert.equal(window.used(2), 2_500);
  assert.equal(window.waitMs(2, 600, 3_000), 60_000 - 2);
  window.settle(entry, 100);
  assert.equal(window.used(3), 100);
  assert.equal(window.waitMs(3, 600, 3_000), 0);
});

Deno.test("TokenWindow: a request settling after it left the window changes nothing", () => {
  const window = new TokenWindow();
  const entry = window.add(0, 1_000);
  assert.equal(window.used(61_000), 0);
  window.settle(entry, 50_000);
  assert.equal(window.used(61_000), 0);
});

Deno.test("TokenWindow: waitMs frees the oldest entries until the request fits; Infinity when it never can", () => {
  const window = new TokenWindow();
  window.add(0, 400);
  window.add(10_000, 400);
  window.add(20_000, 400);
  // limit 1000: 1200 used; 500 more needs 700 freed: the first two entries.
  assert.equal(window.waitMs(30_000, 500, 1_000), 10_000 + 60_000 - 30_000);
  assert.equal(window.waitMs(30_000, 1_001, 1_000), Infinity);
  assert.equal(window.resetAt(30_000), 80_000);
  assert.equal(window.waitMs(80_000, 1_000, 1_000), 0);
});

Deno.test("TokenWindow: a long run of entries compacts and keeps the sum", () => {
  const window = new TokenWindow();
  for (let t = 0; t < 5_000; t++) window.add(t * 100, 1);
  // 60 s / 100 ms = 600 entries counted at the end.
  assert.equal(window.used(4_999 * 100), 600);
});

Deno.test("TokenWindow: entries settle by place after the buffers wrap, grow and shrink", () => {
  const window = new TokenWindow();
  // 100 entries a second for 70 s: the buffers grow to hold them and wrap.
  const held: Array<[number, number]> = [];
  for (let t = 0; t < 70_000; t += 10) held.push([t, window.add(t, 2)]);
  // At 70 s the entries of 0..10 s (1,001 of 7,000) have left.
  assert.equal(window.used(70_000), 5_999 * 2);
  // Settling a request that has left changes nothing; one still counted replaces its tokens.
  window.settle(held[0]![1], 1_000);
  assert.equal(window.used(70_000), 11_998);
  const [time, entry] = held.at(-1)!;
  window.settle(entry, 7);
  assert.equal(window.used(70_000), 11_998 - 2 + 7);
  assert.equal(window.resetAt(70_000), time + 60_000);
  // The burst ends: three entries left (69.97, 69.98, 69.99 s); the buffers shrink, in order.
  assert.equal(window.used(129_965), 2 + 2 + 7);
  assert.equal(window.waitMs(129_965, 10, 10), time + 60_000 - 129_965);
  window.settle(entry, 3);
  assert.equal(window.used(129_965), 2 + 2 + 3);
  assert.ok(window.empty(130_000));
  // A later entry gets a new place: the old handles never reach it.
  const next = window.add(130_000, 5);
  window.settle(entry, 1_000);
  window.settle(next, 6);
  assert.equal(window.used(130_000), 6);
});
