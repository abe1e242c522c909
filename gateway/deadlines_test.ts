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

Deno.test("a deadline whose answer came in while the event loop was busy past it does not fire", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    let fired = 0;
    const cancel = deadline(50, () => fired++);
    // The answer: a connect to a listening port, done by the kernel while the loop is held.
    const answered = Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port }).then(
      (conn) => {
        cancel();
        return conn;
      },
    );
    const busyUntil = performance.now() + 400;
    while (performance.now() < busyUntil) {
      // The loop is held, as by other requests' work; the interval's tick is overdue.
    }
    const conn = await answered;
    conn.close();
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(fired, 0);
  } finally {
    listener.close();
  }
});
