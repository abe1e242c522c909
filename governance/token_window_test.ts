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
