import assert from "node:assert/strict";
import { emptyUsage } from "../core/response.ts";
import type { Outcome, UsageRecord } from "../store/store.ts";
import { makeHarness } from "../tests/harness.ts";
import { handOn } from "./settle.ts";

function record(outcome: Outcome, requestId: string): UsageRecord {
  return {
    requestId,
    keyId: "key_1",
    model: "gpt-5",
    servedModel: "gpt-5",
    upstream: "openai",
    upstreamId: null,
    route: "/v1/chat/completions",
    status: 200,
    outcome,
    attempts: 1,
    inputTokens: 1,
    outputTokens: 2,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    images: 0,
    cost: 0.1,
    latencyMs: 5,
    firstByteMs: 1,
    stream: true,
    time: Date.now(),
  };
}

Deno.test("handOn: releases, writes the row, warns only of endings without an answer", async () => {
  const harness = await makeHarness();
  try {
    const released: number[] = [];
    const admission = { release: (spent: { cost: number }) => void released.push(spent.cost) };
    const spent = { usage: emptyUsage(), images: 0, cost: 0.1, outcome: "ok" as const };
    for (const outcome of ["ok", "budget_cut", "client_disconnect", "upstream_cut"] as const) {
      handOn(harness.deps, admission, { ...spent, outcome }, record(outcome, `req_${outcome}`));
    }
    assert.deepEqual(released, [0.1, 0.1, 0.1, 0.1]);
    assert.deepEqual(harness.rows.map((row) => row.outcome), [
      "ok",
      "budget_cut",
      "client_disconnect",
      "upstream_cut",
    ]);
    const warned = harness.logs.filter((line) =>
      line.message === "request ended without an answer"
    );
    assert.deepEqual(warned.map((line) => line.fields?.requestId), ["req_upstream_cut"]);
  } finally {
    await harness.close();
  }
});

Deno.test("handOn: an admission whose release throws still leaves the row, and is logged", async () => {
  const harness = await makeHarness();
  try {
    const admission = {
      release: () => {
        throw new Error("release broke");
      },
    };
    const spent = { usage: emptyUsage(), images: 0, cost: 0, outcome: "ok" as const };
    handOn(harness.deps, admission, spent, record("ok", "req_1"));
    assert.equal(harness.rows.length, 1);
    assert.ok(harness.logs.some((line) => line.message === "releasing the admission failed"));
  } finally {
    await harness.close();
  }
});
