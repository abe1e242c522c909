import assert from "node:assert/strict";
import { collectParts } from "./collect.ts";

Deno.test("collectParts folds text, reasoning and tool calls in block order", () => {
  const c = collectParts();
  c.add({ type: "start", id: "r1", model: "m", created: 1 });
  c.add({ type: "reasoning_start", index: 0 });
  c.add({ type: "reasoning_delta", index: 0, text: "think" });
  c.add({ type: "reasoning_token", index: 0, token: { vendor: "openai", value: "enc" } });
  c.add({ type: "reasoning_end", index: 0 });
  c.add({ type: "tool_call_start", index: 2, id: "call_1", name: "Read", kind: "function" });
  c.add({ type: "text_start", index: 1 });
  c.add({ type: "text_delta", index: 1, text: "Hel" });
  c.add({ type: "text_delta", index: 1, text: "lo" });
  c.add({ type: "tool_call_delta", index: 2, delta: '{"a"' });
  c.add({ type: "tool_call_delta", index: 2, delta: ":1}" });
  assert.equal(c.result(), null);
  c.add({
    type: "finish",
    stopReason: "tool_use",
    usage: {
      inputTokens: 3,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 1,
    },
  });
  const r = c.result()!;
  assert.equal(r.id, "r1");
  assert.deepEqual(r.content.map((p) => p.type), ["reasoning", "text", "tool_call"]);
  assert.equal((r.content[1] as { text: string }).text, "Hello");
  assert.equal((r.content[2] as { arguments: string }).arguments, '{"a":1}');
  assert.deepEqual((r.content[0] as { token: unknown }).token, { vendor: "openai", value: "enc" });
});

Deno.test("collectParts keeps the finish part's stop details", () => {
  const c = collectParts();
  c.add({ type: "start", id: "r2", model: "m", created: 1 });
  c.add({
    type: "finish",
    stopReason: "refusal",
    stopDetails: { explanation: "Blocked.", category: "cyber" },
    usage: {
      inputTokens: 1,
      outputTokens: 1,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    },
  });
  const r = c.result()!;
  assert.equal(r.stopReason, "refusal");
  assert.deepEqual(r.content, []);
  assert.deepEqual(r.stopDetails, { explanation: "Blocked.", category: "cyber" });
});
