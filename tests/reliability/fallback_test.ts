/**
 * Routing among a model's deployments and on to its fallbacks, end to end: the weighted split of
 * healthy deployments, a failing deployment passed over, a model whose provider is down answered
 * by its fallback on another provider (in the client's own wire, at the fallback's prices), and a
 * context overflow sent to the fallback with the larger window.
 */
import assert from "node:assert/strict";
import { costOf } from "../../gateway/cost.ts";
import type { UsageRecord } from "../../store/store.ts";
import { envelopeOf, readStream, type Wire } from "../governance/gov_kit.ts";
import { status } from "./fault_upstream.ts";
import { answerText, CLAUDE_PRICES, GPT_PRICES, type Rig, startRig } from "./reliability_rig.ts";

const rig: Rig = await startRig({ GATEHOUSE_RETRIES: "2" });
const WIRES: Wire[] = ["chat", "messages", "responses"];

/** Asserts `response` is a clean 200 on `wire`, served by `model`. */
async function assertServed(wire: Wire, response: Response, stream: boolean, model: string) {
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get("x-gatehouse-served-model"), model);
  if (stream) {
    const read = await readStream(wire, response);
    assert.equal(read.ending, "clean");
    assert.match(read.text, /You said: Hi/);
  } else {
    assert.match(answerText(wire, await response.json()), /You said: Hi/);
  }
}

/** The row's cost at `prices`. */
const costAt = (prices: typeof GPT_PRICES, row: UsageRecord) =>
  costOf(prices, {
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cacheReadTokens: row.cachedTokens,
    cacheWriteTokens: row.cacheWriteTokens,
    reasoningTokens: row.reasoningTokens,
  });

Deno.test("two healthy deployments weighted 3:1 share the traffic about 3:1", async () => {
  rig.reset();
  for (let i = 0; i < 200; i++) {
    const response = await rig.send("chat", "gpt-x");
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
  const share = rig.a.requests.length / 200;
  assert.equal(rig.a.requests.length + rig.b.requests.length, 200, "no retries");
  assert.ok(share > 0.6 && share < 0.9, `openai-a (weight 3) took ${share} of the traffic`);
});

Deno.test("a deployment failing every request: every request still succeeds on the other", async () => {
  rig.reset();
  rig.b.otherwise(status(500));
  const rows: UsageRecord[] = [];
  for (let i = 0; i < 60; i++) {
    const response = await rig.send(i % 2 ? "messages" : "chat", "gpt-x", { stream: i % 3 === 0 });
    assert.equal(response.status, 200);
    await response.body?.cancel();
    rows.push(await rig.row(response));
  }
  for (const row of rows.filter((row) => row.attempts > 1)) {
    // Switching to another deployment: no second try of the failed one.
    assert.deepEqual(
      row.attemptLog?.map((a) => [a.deployment, a.result]),
      [["gpt-x@openai-b", "retryable_status"], ["gpt-x@openai-a", "ok"]],
    );
  }
  assert.ok(rows.every((row) => row.outcome === "ok" && row.upstream === "openai-a"));
  // GATEHOUSE_COOLDOWN_FAILURES (3) failures cool it down: no traffic after them.
  assert.equal(rig.b.requests.length, 3);
});

for (const wire of WIRES) {
  for (const stream of [false, true]) {
    Deno.test(`${wire}${stream ? " stream" : ""}: claude-x overloaded on Anthropic is answered by gpt-x`, async () => {
      rig.reset();
      rig.claude.otherwise(status(529));
      const response = await rig.send(wire, "claude-x", { stream });
      await assertServed(wire, response, stream, "gpt-x");
      const row = await rig.row(response);
      assert.equal(row.outcome, "ok");
      assert.equal(row.model, "claude-x");
      assert.equal(row.servedModel, "gpt-x");
      assert.match(row.upstream, /^openai-[ab]$/);
      assert.equal(row.attempts, 4);
      assert.deepEqual(row.attemptLog?.map((a) => [a.deployment, a.model, a.status, a.result]), [
        ["claude-x@anthropic-a", "claude-x", 529, "retryable_status"],
        ["claude-x@anthropic-a", "claude-x", 529, "retryable_status"],
        ["claude-x@anthropic-a", "claude-x", 529, "retryable_status"],
        [`gpt-x@${row.upstream}`, "gpt-x", 200, "ok"],
      ]);
      assert.equal(rig.claude.requests.length, 3);
      assert.equal(rig.a.requests.length + rig.b.requests.length, 1);
      // gpt-x's prices, not claude-x's.
      assert.ok(row.cost > 0);
      assert.ok(Math.abs(row.cost - costAt(GPT_PRICES, row)) < 1e-12, `${row.cost}`);
      assert.notEqual(row.cost, costAt(CLAUDE_PRICES, row));
    });
  }
}

for (const [wire, stream] of [["messages", false], ["chat", true]] as const) {
  Deno.test(`${wire}${stream ? " stream" : ""}: a refused Anthropic deployment falls back to gpt-x`, async () => {
    rig.reset();
    const response = await rig.send(wire, "claude-dead", { stream });
    await assertServed(wire, response, stream, "gpt-x");
    const row = await rig.row(response);
    assert.deepEqual(row.attemptLog?.map((a) => [a.deployment, a.status, a.result]), [
      ["claude-dead@anthropic-dead", 0, "unreachable"],
      ["claude-dead@anthropic-dead", 0, "unreachable"],
      ["claude-dead@anthropic-dead", 0, "unreachable"],
      [`gpt-x@${row.upstream}`, 200, "ok"],
    ]);
    assert.equal(row.servedModel, "gpt-x");
  });
}

Deno.test("a refused deployment: the next attempt goes to the model's other one at once", async () => {
  rig.reset();
  const response = await rig.send("responses", "gpt-dead", { stream: true });
  await assertServed("responses", response, true, "gpt-dead");
  const row = await rig.row(response);
  assert.deepEqual(row.attemptLog?.map((a) => [a.deployment, a.result]), [
    ["gpt-dead@dead", "unreachable"],
    ["gpt-dead@openai-b", "ok"],
  ]);
  assert.ok(rig.b.requests[0]!.time - row.time < 200, "no backoff before another deployment");
});

Deno.test("a refused credential on one deployment: the other one at once, never the same again", async () => {
  rig.reset();
  rig.a.otherwise(status(401));
  for (const wire of WIRES) {
    for (let i = 0; i < 4; i++) {
      const response = await rig.send(wire, "gpt-x");
      assert.equal(response.status, 200, await response.clone().text());
      const row = await rig.row(response);
      const log = row.attemptLog?.map((a) => [a.deployment, a.status, a.result]);
      if (log?.length === 2) {
        assert.deepEqual(log, [
          ["gpt-x@openai-a", 401, "credential_refused"],
          ["gpt-x@openai-b", 200, "ok"],
        ]);
      } else assert.deepEqual(log, [["gpt-x@openai-b", 200, "ok"]]);
    }
  }
  // Three refusals in a row cooled openai-a: the admin view says why.
  assert.ok(rig.a.requests.length <= 3, `openai-a was asked ${rig.a.requests.length} times`);
});

Deno.test("a refused credential on the only deployment: the fallback; with none, a 502 at once", async () => {
  rig.reset();
  rig.claude.push(status(403));
  const response = await rig.send("messages", "claude-x");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-gatehouse-served-model"), "gpt-x");
  const row = await rig.row(response);
  assert.deepEqual(row.attemptLog?.map((a) => [a.model, a.status, a.result]), [
    ["claude-x", 403, "credential_refused"],
    ["gpt-x", 200, "ok"],
  ]);
  rig.reset();
  rig.claude.push(status(401));
  const alone = await rig.send("messages", "claude-a");
  assert.equal(alone.status, 502);
  const error = envelopeOf("messages", await alone.json());
  assert.match(error.message, /refused the gateway's credential/);
  assert.equal(rig.claude.requests.length, 1, "not retried");
});

Deno.test("the model and its fallback both down: the last failure, in the client's envelope", async () => {
  rig.reset();
  rig.claude.otherwise(status(529));
  rig.a.otherwise(status(500));
  rig.b.otherwise(status(500));
  const response = await rig.send("messages", "claude-x");
  assert.equal(response.status, 502);
  assert.equal(response.headers.get("x-gatehouse-served-model"), "gpt-x", "the last model tried");
  const error = envelopeOf("messages", await response.json());
  assert.equal(error.type, "api_error");
  assert.match(error.message, /Provider "openai-[ab]" returned HTTP 500/);
  assert.match(error.message, /6 attempts/);
  const row = await rig.row(response);
  assert.equal(row.attempts, 6);
  assert.equal(row.outcome, "upstream_error");
  assert.deepEqual(row.attemptLog?.map((a) => a.model), [
    "claude-x",
    "claude-x",
    "claude-x",
    "gpt-x",
    "gpt-x",
    "gpt-x",
  ]);
});

Deno.test("a 429 asking for more than 30 s: the other deployment at once", async () => {
  rig.reset();
  rig.a.otherwise(status(429, { "retry-after": "60" }));
  let row: UsageRecord | null = null;
  for (let i = 0; i < 30 && rig.a.requests.length === 0; i++) {
    const response = await rig.send("chat", "gpt-x");
    assert.equal(response.status, 200);
    await response.body?.cancel();
    row = await rig.row(response);
  }
  assert.equal(rig.a.requests.length, 1);
  assert.deepEqual(row?.attemptLog?.map((a) => [a.deployment, a.status, a.result]), [
    ["gpt-x@openai-a", 429, "retryable_status"],
    ["gpt-x@openai-b", 200, "ok"],
  ]);
  const last = rig.b.requests.at(-1)!;
  assert.ok(last.time - rig.a.requests[0]!.time < 200, "no wait");
  // Cooling for the minute it asked: the other deployment takes everything.
  await (await rig.send("chat", "gpt-x")).body?.cancel();
  assert.equal(rig.a.requests.length, 1);
});

Deno.test("a 429 asking for more than 30 s on the model's only deployment: the fallback", async () => {
  rig.reset();
  rig.claude.push(status(429, { "retry-after": "60" }));
  const response = await rig.send("messages", "claude-x", { stream: true });
  await assertServed("messages", response, true, "gpt-x");
  const row = await rig.row(response);
  assert.deepEqual(row.attemptLog?.map((a) => [a.model, a.status, a.result]), [
    ["claude-x", 429, "retryable_status"],
    ["gpt-x", 200, "ok"],
  ]);
  assert.equal(rig.claude.requests.length, 1);
});

const OVERFLOWS = [
  { model: "gpt-small", wire: "chat", stream: false, deployment: "gpt-small@openai-a" },
  { model: "gpt-small", wire: "messages", stream: true, deployment: "gpt-small@openai-a" },
  { model: "gpt-small", wire: "responses", stream: false, deployment: "gpt-small@openai-a" },
  {
    model: "claude-small",
    wire: "messages",
    stream: false,
    deployment: "claude-small@anthropic-a",
  },
  { model: "claude-small", wire: "chat", stream: true, deployment: "claude-small@anthropic-a" },
] as const;

for (const c of OVERFLOWS) {
  Deno.test(`${c.wire}${c.stream ? " stream" : ""}: ${c.model} overflowing its window goes to gpt-big`, async () => {
    rig.reset();
    (c.model === "gpt-small" ? rig.a : rig.claude).push("overflow");
    const response = await rig.send(c.wire, c.model, { stream: c.stream });
    await assertServed(c.wire, response, c.stream, "gpt-big");
    const row = await rig.row(response);
    assert.equal(row.model, c.model);
    assert.equal(row.servedModel, "gpt-big");
    assert.deepEqual(row.attemptLog?.map((a) => [a.deployment, a.status, a.result]), [
      [c.deployment, 400, "context_overflow"],
      ["gpt-big@openai-b", 200, "ok"],
    ]);
    assert.equal(rig.b.requests.length, 1);
    assert.equal(rig.b.requests[0]!.model, "gpt-big");
  });
}

Deno.test("an overflow on a model without fallback_on_context_overflow is the client's 400", async () => {
  rig.reset();
  rig.a.push("overflow");
  const response = await rig.send("chat", "gpt-small-off");
  assert.equal(response.status, 400);
  const body = await response.json();
  assert.equal(body.error.code, "context_length_exceeded");
  const row = await rig.row(response);
  assert.equal(row.attempts, 1);
  assert.equal(row.outcome, "upstream_error");
  assert.equal(rig.a.requests.length, 1);
  assert.equal(rig.b.requests.length, 0, "no fallback");
});

Deno.test("fallback: close", async () => {
  await rig.close();
});
