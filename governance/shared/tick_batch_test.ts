import assert from "node:assert/strict";
import { MAX_BATCH, TickBatch } from "./tick_batch.ts";

/** A batcher that records each batch it runs and answers each call with its text doubled. */
function recording() {
  const runs: string[][] = [];
  const batch = new TickBatch<string, string>(
    (calls) => {
      runs.push(calls);
      return Promise.resolve(calls.map((call) => call + call));
    },
    (call) => call,
  );
  return { runs, batch };
}

Deno.test("tick batch: the calls of one turn run as one, each answered in order", async () => {
  const { runs, batch } = recording();
  const answers = await Promise.all(["a", "b", "c"].map((call) => batch.add(call)));
  assert.deepEqual(answers, ["aa", "bb", "cc"]);
  assert.deepEqual(runs, [["a", "b", "c"]]);
  // A later turn is a batch of its own.
  assert.equal(await batch.add("d"), "dd");
  assert.deepEqual(runs, [["a", "b", "c"], ["d"]]);
});

Deno.test("tick batch: a request already in the batch starts a new one", async () => {
  const { runs, batch } = recording();
  await Promise.all(["a", "b", "a", "c"].map((call) => batch.add(call)));
  assert.deepEqual(runs, [["a", "b"], ["a", "c"]]);
});

Deno.test("tick batch: past MAX_BATCH calls a new batch starts", async () => {
  const { runs, batch } = recording();
  const calls = Array.from({ length: MAX_BATCH + 3 }, (_, i) => `c${i}`);
  const answers = await Promise.all(calls.map((call) => batch.add(call)));
  assert.deepEqual(answers, calls.map((call) => call + call));
  assert.deepEqual(runs.map((run) => run.length), [MAX_BATCH, 3]);
});

Deno.test("tick batch: a batch that fails fails each of its calls, and the next runs", async () => {
  let fail = true;
  const batch = new TickBatch<string, string>((calls) => {
    if (fail) throw new Error("Connection is closed.");
    return Promise.resolve(calls);
  }, (call) => call);
  const failed = await Promise.allSettled(["a", "b"].map((call) => batch.add(call)));
  assert.deepEqual(
    failed.map((r) => r.status === "rejected" && (r.reason as Error).message),
    ["Connection is closed.", "Connection is closed."],
  );
  fail = false;
  assert.equal(await batch.add("c"), "c");
});

Deno.test("tick batch: a call left without an answer is rejected, naming the count", async () => {
  const batch = new TickBatch<string, string>(
    (calls) => Promise.resolve(calls.slice(1)),
    (call) => call,
  );
  const [first, second] = await Promise.allSettled(["a", "b"].map((call) => batch.add(call)));
  assert.deepEqual(first, { status: "fulfilled", value: "b" });
  assert.equal(second?.status, "rejected");
  assert.match(String((second as PromiseRejectedResult).reason), /a batch of 2 got 1 answers/);
});

Deno.test("tick batch: `before` runs another batcher's calls first, whichever came first", async () => {
  const order: string[] = [];
  const releases = new TickBatch<string, string>((calls) => {
    order.push(`releases ${calls.join(",")}`);
    return Promise.resolve(calls);
  }, (call) => call);
  const admits = new TickBatch<string, string>(
    (calls) => {
      order.push(`admits ${calls.join(",")}`);
      return Promise.resolve(calls);
    },
    (call) => call,
    () => releases.flush(),
  );
  await Promise.all([admits.add("a"), releases.add("x"), admits.add("b"), releases.add("y")]);
  assert.deepEqual(order, ["releases x,y", "admits a,b"]);
});
