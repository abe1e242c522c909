import assert from "node:assert/strict";
import { RequestWindow, WINDOW_MS } from "./sliding_window.ts";

Deno.test("RequestWindow: rpm=3, three at t=0 — refused at 59.999 s, admitted at exactly 60 s", () => {
  const window = new RequestWindow(3);
  for (let i = 0; i < 3; i++) {
    assert.equal(window.waitMs(0), 0);
    window.push(0);
  }
  assert.equal(window.waitMs(59_999), 1);
  assert.equal(window.count(59_999), 3);
  assert.equal(window.waitMs(60_000), 0);
  assert.equal(window.count(60_000), 0);
});

Deno.test("RequestWindow: a burst straddling a fixed-minute boundary never gets more than rpm into any 60 s", () => {
  const rpm = 5;
  const window = new RequestWindow(rpm);
  const admitted: number[] = [];
  // Try every 250 ms from 0 to 200 s, densely around the minute boundaries.
  for (let t = 0; t <= 200_000; t += 250) {
    if (window.waitMs(t) === 0) {
      window.push(t);
      admitted.push(t);
    }
  }
  // Fixed windows would admit 5 at 59.75 s and 5 more at 60.0 s; the sliding window cannot.
  for (const start of admitted) {
    const inWindow = admitted.filter((t) => t >= start && t < start + WINDOW_MS).length;
    assert.ok(inWindow <= rpm, `${inWindow} admitted in [${start}, ${start + WINDOW_MS})`);
  }
  // And it keeps pace: rpm per 60 s over 200 s.
  assert.equal(admitted.length, 4 * rpm);
  const late = new RequestWindow(rpm);
  for (let i = 0; i < rpm; i++) late.push(59_750);
  assert.ok(late.waitMs(60_000) > 0, "the next minute does not reset a sliding window");
  assert.equal(late.waitMs(119_750), 0);
});

Deno.test("RequestWindow: waitMs is when the oldest of the last rpm leaves", () => {
  const window = new RequestWindow(2);
  window.push(1_000);
  window.push(30_000);
  assert.equal(window.waitMs(40_000), 21_000);
  assert.equal(window.resetAt(40_000), 90_000);
  assert.equal(window.waitMs(61_000), 0);
  assert.equal(window.count(61_000), 1);
  assert.equal(window.resetAt(100_000), 100_000, "an empty window is replenished now");
});

Deno.test("RequestWindow: resizing keeps the newest times", () => {
  const window = new RequestWindow(5);
  for (let t = 0; t < 5; t++) window.push(t * 1_000);
  window.resize(2);
  assert.equal(window.limit, 2);
  assert.equal(window.count(5_000), 2);
  // The newest two (3 s, 4 s) count: the next admission waits for 3 s to age out.
  assert.equal(window.waitMs(5_000), 3_000 + WINDOW_MS - 5_000);
  window.resize(4);
  assert.equal(window.waitMs(5_000), 0);
  window.push(5_000);
  window.push(5_000);
  assert.equal(window.count(5_000), 4);
  assert.equal(window.waitMs(5_000), 3_000 + WINDOW_MS - 5_000);
});

Deno.test("RequestWindow: grows past its first buffer up to the limit; a huge limit allocates little", () => {
  const window = new RequestWindow(1_000_000_000);
  for (let i = 0; i < 100; i++) window.push(i);
  assert.equal(window.count(100), 100);
  assert.equal(window.waitMs(100), 0);
  const small = new RequestWindow(40);
  for (let i = 0; i < 40; i++) small.push(i);
  assert.equal(small.count(40), 40);
  assert.equal(small.waitMs(40), WINDOW_MS - 40, "the oldest (t=0) frees the next place");
});

Deno.test("RequestWindow: a clock stepping back keeps the times in order", () => {
  const window = new RequestWindow(2);
  window.push(10_000);
  window.push(9_000);
  assert.equal(window.resetAt(10_000), 70_000);
  assert.equal(window.waitMs(69_999), 1);
});
