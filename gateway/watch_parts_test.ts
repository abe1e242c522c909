import assert from "node:assert/strict";
import { GatewayError } from "../core/errors.ts";
import { emptyUsage } from "../core/response.ts";
import type { StreamPart } from "../core/stream.ts";
import { chatRequestOf, makeHarness } from "../tests/harness.ts";
import type { Admitter } from "./admission.ts";
import { Lifecycle } from "./lifecycle.ts";
import { watchParts } from "./watch_parts.ts";

/** A lifecycle whose budget watch refuses once the stream has cost `limitUsd`. */
async function watched(limitUsd: number) {
  const quota = new GatewayError("quota", 429, "Budget reached.", { code: "insufficient_quota" });
  const admitter: Admitter = {
    admit: () => ({ release: () => {}, watch: (f) => f.cost >= limitUsd ? quota : null }),
  };
  const harness = await makeHarness({ admitter });
  const { request, model } = await chatRequestOf(harness);
  const life = new Lifecycle(harness.deps, request, true);
  life.resolved(model);
  await life.admit();
  return { harness, life, quota };
}

function run(life: Lifecycle, parts: StreamPart[]): StreamPart[] {
  const out: StreamPart[] = [];
  const step = watchParts(life);
  for (const part of parts) step.transform(part, { enqueue: (p) => out.push(p) });
  return out;
}

Deno.test("watchParts: after the delta that reaches the budget, only the budget's error goes on", async () => {
  // gpt-5 output is $10 per million tokens: the second one-token delta reaches $0.000015.
  const { harness, life, quota } = await watched(0.000015);
  try {
    const text = (t: string): StreamPart => ({ type: "text_delta", index: 0, text: t });
    const out = run(life, [
      { type: "start", id: "up", model: "gpt-5", created: 1, usage: { inputTokens: 1 } },
      text(" alpha"),
      text(" bravo"),
      text(" delta"),
      { type: "text_end", index: 0 },
      { type: "finish", stopReason: "end_turn", usage: emptyUsage() },
    ]);
    assert.deepEqual(out.slice(1).map((p) => p.type), ["text_delta", "text_delta", "error"]);
    assert.equal((out.at(-1) as { error: GatewayError }).error, quota);
    assert.equal(life.cut, true);
    life.bodyEnded("end", 200);
    assert.equal(harness.rows[0]!.outcome, "budget_cut");
    assert.equal(harness.rows[0]!.outputTokens, 2, "billed the two deltas delivered");
  } finally {
    await harness.close();
  }
});

Deno.test("watchParts: a stream under its budget passes every part", async () => {
  const { harness, life } = await watched(1);
  try {
    const parts: StreamPart[] = [
      { type: "text_delta", index: 0, text: "Hi" },
      { type: "finish", stopReason: "end_turn", usage: emptyUsage() },
    ];
    assert.deepEqual(run(life, parts), parts);
    assert.equal(life.cut, false);
  } finally {
    await harness.close();
  }
});
