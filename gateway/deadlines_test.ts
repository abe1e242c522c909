import assert from "node:assert/strict";
import { deadline } from "./deadlines.ts";

Deno.test("deadline fires after its time and not when cancelled", async () => {
  let fired = 0;
  deadline(50, () => fired++);
  const cancel = deadline(50, () => fired += 10);
  cancel();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(fired, 1);
});

Deno.test("cancelling a deadline after it fired leaves the one that reused its slot", async () => {
  let first = 0;
  let second = 0;
  const cancelFirst = deadline(10, () => first++);
  await new Promise((resolve) => setTimeout(resolve, 250));
  assert.equal(first, 1);
  // The first deadline's slot is free again and goes to the next one.
  const cancelSecond = deadline(50, () => second++);
  cancelFirst();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(second, 1);
  cancelSecond();
});

Deno.test("many deadlines set and cancelled reuse their slots, and the rest still fire", async () => {
  let fired = 0;
  for (let i = 0; i < 1000; i++) deadline(10_000, () => fired += 100)();
  const kept = [deadline(20, () => fired++), deadline(20, () => fired++)];
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(fired, 2);
  for (const cancel of kept) cancel();
});
