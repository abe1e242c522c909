import assert from "node:assert/strict";
import type { StreamPart } from "../../core/stream.ts";
import { rest, streamItems } from "./stream_items.ts";
import { coreRequest } from "./test_util.ts";

Deno.test("rest: only what the full text adds", () => {
  assert.equal(rest("ab", "abc"), "c");
  assert.equal(rest("ab", "ab"), "");
  assert.equal(rest("ab", "xy"), "");
});

Deno.test("streamItems: blocks are numbered in start order across kinds", () => {
  const parts: StreamPart[] = [];
  const items = streamItems(coreRequest(), (n) => n, (p) => parts.push(p));
  items.added(0, { type: "message" });
  items.textDelta(items.textPart(items.get(0), 0), "a");
  items.added(1, { type: "function_call", call_id: "c", name: "f", arguments: "" });
  items.callDelta(items.get(1), "{}");
  items.done(1, { type: "function_call", call_id: "c", name: "f", arguments: "{}" });
  items.closeAll();
  assert.deepEqual(parts, [
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "a" },
    { type: "tool_call_start", index: 1, id: "c", name: "f", kind: "function" },
    { type: "tool_call_delta", index: 1, delta: "{}" },
    { type: "tool_call_end", index: 1 },
    { type: "text_end", index: 0 },
  ]);
  assert.deepEqual(items.seen, { toolCall: true, refusal: false });
});

Deno.test("streamItems: closeAll ends reasoning and calls left open, once", () => {
  const parts: StreamPart[] = [];
  const items = streamItems(coreRequest(), (n) => n, (p) => parts.push(p));
  items.added(0, { type: "reasoning", id: "rs" });
  const reasoning = items.get(0);
  assert.ok(reasoning?.kind === "reasoning");
  items.reasoningDelta(reasoning, "x");
  items.added(1, { type: "custom_tool_call", call_id: "c", name: "p", input: "" });
  items.closeAll();
  items.closeAll();
  items.done(1, { type: "custom_tool_call", call_id: "c", name: "p", input: "late" });
  assert.deepEqual(parts.map((p) => p.type), [
    "reasoning_start",
    "reasoning_delta",
    "tool_call_start",
    "reasoning_end",
    "tool_call_end",
  ]);
});

Deno.test("streamItems: refusal parts open no block and are joined for the stop details", () => {
  const parts: StreamPart[] = [];
  const items = streamItems(coreRequest(), (n) => n, (p) => parts.push(p));
  assert.equal(items.refusal(), "");
  items.added(0, { type: "message" });
  items.refusalDelta(0, 0, "I can");
  items.refusalDelta(0, 0, "'t");
  items.refusalDone(0, 0, "");
  items.done(1, {
    type: "message",
    content: [{ type: "output_text", text: "ok" }, { type: "refusal", refusal: "Nor that." }],
  });
  assert.equal(items.refusal(), "I can't\n\nNor that.");
  assert.deepEqual(parts.map((p) => p.type), ["text_start", "text_delta", "text_end"]);
  assert.deepEqual(items.seen, { toolCall: false, refusal: true });
});
