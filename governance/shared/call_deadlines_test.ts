import assert from "node:assert/strict";
import { CallDeadlines, TIMED_OUT } from "./call_deadlines.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call that never answers until told. */
function held<T>(): { call: Promise<T>; answer: (value: T) => void; fail: (e: Error) => void } {
  let answer: (value: T) => void = () => {};
  let fail: (e: Error) => void = () => {};
  const call = new Promise<T>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { call, answer, fail };
}

Deno.test("call deadlines: answers and failures within the allowance pass through", async () => {
  const deadlines = new CallDeadlines(200);
  try {
    assert.equal(await deadlines.bound(Promise.resolve(7)), 7);
    await assert.rejects(deadlines.bound(Promise.reject(new Error("NOSCRIPT"))), /NOSCRIPT/);
    const late = held<string>();
    const bound = deadlines.bound(late.call);
    await sleep(50);
    late.answer("ok");
    assert.equal(await bound, "ok");
    assert.equal(deadlines.pending, 0);
  } finally {
    deadlines.close();
  }
});

Deno.test("call deadlines: a call open past the allowance fails, each at its own time", async () => {
  const deadlines = new CallDeadlines(80);
  try {
    const started = performance.now();
    const first = held<number>();
    const firstBound = deadlines.bound(first.call);
    const firstFailed = firstBound.then(() => -1, (e: Error) => {
      assert.equal(e.message, TIMED_OUT);
      return performance.now() - started;
    });
    await sleep(40);
    const second = held<number>();
    const secondFailed = deadlines.bound(second.call).then(() => -1, () => {
      return performance.now() - started;
    });
    const answered = deadlines.bound(Promise.resolve(3));
    assert.equal(await answered, 3);
    const firstAt = await firstFailed;
    assert.ok(firstAt >= 78 && firstAt < 200, `first failed at ${firstAt} ms`);
    const secondAt = await secondFailed;
    assert.ok(secondAt >= 118 && secondAt < 260, `second failed at ${secondAt} ms`);
    // A late answer changes nothing.
    first.answer(1);
    second.fail(new Error("late"));
    assert.equal(deadlines.pending, 0);
  } finally {
    deadlines.close();
  }
});

Deno.test("call deadlines: many calls keep one timer and a short list", async () => {
  const deadlines = new CallDeadlines(30);
  try {
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        Array.from({ length: 2_000 }, (_, i) => deadlines.bound(Promise.resolve(i))),
      );
      await sleep(10);
    }
    const stuck = held<void>();
    const failed = deadlines.bound(stuck.call).catch((e: Error) => e.message);
    assert.equal(deadlines.pending, 1);
    assert.equal(await failed, TIMED_OUT);
  } finally {
    deadlines.close();
  }
});
