import assert from "node:assert/strict";
import { GatewayError } from "../core/errors.ts";
import { chatRequestOf, makeHarness } from "../tests/harness.ts";
import type { Admitter, Spent } from "./admission.ts";
import { Lifecycle } from "./lifecycle.ts";
import { withLifecycle } from "./with_lifecycle.ts";
import { SHUTTING_DOWN, shuttingDown } from "./in_flight.ts";

/** A lifecycle over a demo gateway whose admitter is `admitter`; rows as written. */
async function setUp(admitter?: Admitter) {
  const harness = await makeHarness({ admitter });
  return { harness, ...await chatRequestOf(harness) };
}

for (const kind of ["sync", "async"] as const) {
  Deno.test(`Lifecycle: a ${kind} admitter's hold is released once, with what was spent`, async () => {
    const released: Spent[] = [];
    const hold = { release: (spent: Spent) => void released.push(spent) };
    const admitter: Admitter = { admit: () => kind === "sync" ? hold : Promise.resolve(hold) };
    const { harness, request, model } = await setUp(admitter);
    try {
      const life = new Lifecycle(harness.deps, request, false);
      life.resolved(model);
      const admitted = life.admit();
      assert.equal(admitted === undefined, kind === "sync", "a promise only for an async admitter");
      await admitted;
      life.add({ inputTokens: 10, outputTokens: 5 });
      life.answered(200);
      life.answered(200);
      life.fail(new Error("late"));
      assert.equal(released.length, 1);
      assert.equal(released[0]!.outcome, "ok");
      assert.equal(released[0]!.usage.outputTokens, 5);
      assert.equal(harness.rows.length, 1, "one row, whatever is said after the settle");
    } finally {
      await harness.close();
    }
  });
}

Deno.test("Lifecycle: an admitter's refusal settles the request as rejected with its status", async () => {
  const admitter: Admitter = {
    admit: () => Promise.reject(new GatewayError("rate_limit", 429, "Slow down.")),
  };
  const { harness, request, model } = await setUp(admitter);
  try {
    await assert.rejects(
      withLifecycle(harness.deps, request, false, async (life) => {
        life.resolved(model);
        await life.admit();
        throw new Error("not reached");
      }),
      /Slow down/,
    );
    assert.equal(harness.rows.length, 1);
    assert.equal(harness.rows[0]!.outcome, "rejected");
    assert.equal(harness.rows[0]!.status, 429);
    assert.equal(harness.rows[0]!.attempts, 0);
  } finally {
    await harness.close();
  }
});

Deno.test("Lifecycle: an admitter whose release throws still leaves the row", async () => {
  const admitter: Admitter = {
    admit: () => ({
      release: () => {
        throw new Error("release broke");
      },
    }),
  };
  const { harness, request, model } = await setUp(admitter);
  try {
    const life = new Lifecycle(harness.deps, request, false);
    life.resolved(model);
    life.admit();
    life.answered(200);
    assert.equal(harness.rows.length, 1);
    assert.ok(harness.logs.some((line) => line.message === "releasing the admission failed"));
  } finally {
    await harness.close();
  }
});

Deno.test("Lifecycle: text delivered after a metered stream ended is billed, the watch not asked", async () => {
  let asked = 0;
  const admitter: Admitter = {
    admit: () => ({ release: () => {}, watch: () => (asked++, null) }),
  };
  const { harness, request, model } = await setUp(admitter);
  try {
    const life = new Lifecycle(harness.deps, request, true);
    life.resolved(model);
    life.admit();
    life.meter!.delivered(" alpha");
    life.streamEnded(new GatewayError("upstream", 502, "The provider ended with an error."));
    life.meter!.delivered(" bravo");
    assert.equal(asked, 1);
    assert.equal(life.cut, false, "an upstream error is not the budget's cut");
    life.bodyEnded("end", 200);
    assert.equal(harness.rows[0]!.outputTokens, 2, "both deltas reached the client");
  } finally {
    await harness.close();
  }
});

Deno.test("Lifecycle: text a quiet budget left uncounted is counted to bill an unfinished stream", async () => {
  let asked = 0;
  const admitter: Admitter = {
    admit: () => ({ release: () => {}, watch: () => (asked++, null), quiet: () => true }),
  };
  const { harness, request, model } = await setUp(admitter);
  try {
    const finished = new Lifecycle(harness.deps, request, true);
    finished.resolved(model);
    finished.admit();
    finished.meter!.delivered(" alpha");
    finished.add({ inputTokens: 3, outputTokens: 7 });
    finished.streamEnded("finish");
    finished.bodyEnded("end", 200);
    const cancelled = new Lifecycle(harness.deps, request, true);
    cancelled.resolved(model);
    cancelled.admit();
    cancelled.meter!.delivered(" alpha");
    cancelled.meter!.delivered(" bravo delta");
    cancelled.bodyEnded("cancel", 200);
    assert.equal(asked, 0, "quiet: the watch was never asked");
    assert.equal(harness.rows[0]!.outputTokens, 7, "a finished stream: the provider's count");
    assert.equal(harness.rows[1]!.outcome, "client_disconnect");
    assert.equal(harness.rows[1]!.outputTokens, 3, "the delivered text, counted at the end");
  } finally {
    await harness.close();
  }
});

Deno.test("Lifecycle: a metered stream that finished before its usage came is billed what it delivered", async () => {
  const admitter: Admitter = {
    admit: () => ({ release: () => {}, watch: () => null, quiet: () => true, inputEstimate: 5 }),
  };
  const { harness, request, model } = await setUp(admitter);
  try {
    // Chat: the finish_reason chunk ends the answer, the usage chunk follows; the client left
    // between them.
    const life = new Lifecycle(harness.deps, request, true);
    life.resolved(model);
    life.admit();
    life.meter!.delivered(" alpha bravo");
    life.streamEnded("finish");
    life.bodyEnded("cancel", 200);
    const row = harness.rows[0]!;
    assert.equal(row.outcome, "ok", "the answer was complete");
    assert.deepEqual([row.inputTokens, row.outputTokens], [5, 2], "not zero");
    assert.ok(row.cost > 0);
  } finally {
    await harness.close();
  }
});

Deno.test("Lifecycle: a shutdown ends it; settleNow records it then, once, as shutdown", async () => {
  const { harness, request, model } = await setUp();
  try {
    const life = new Lifecycle(harness.deps, request, true);
    life.resolved(model);
    await life.admit();
    life.attempting(model);
    life.delivering(200);
    assert.equal(harness.deps.inflight.size, 1);
    life.shutDown(shuttingDown());
    assert.equal(life.streamError?.code, SHUTTING_DOWN);
    life.settleNow();
    life.settleNow();
    life.bodyEnded("end", 200);
    assert.equal(harness.rows.length, 1);
    assert.equal(harness.rows[0]!.outcome, "shutdown");
    assert.equal(harness.rows[0]!.status, 200, "the client had its 200 and a terminal error");
    assert.equal(harness.deps.inflight.size, 0);
  } finally {
    await harness.close();
  }
});
