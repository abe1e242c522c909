import assert from "node:assert/strict";
import type { StreamPart } from "../../core/stream.ts";
import { shortenToolName } from "../tool_names.ts";
import { decodeStream } from "./decode_stream.ts";
import { coreRequest, events, joined, ofType, pipe } from "./test_support.ts";

const head = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 100, model: "up" };
const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
  ...head,
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});
const usageChunk = {
  ...head,
  choices: [],
  usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
};

async function decode(payloads: unknown[], request = coreRequest()): Promise<StreamPart[]> {
  return await pipe(events(...payloads), decodeStream(request, "prov"));
}

Deno.test("decodeStream: reasoning, then text, contiguous indices, finish held until [DONE]", async () => {
  const parts = await decode([
    delta({ role: "assistant", content: "", reasoning_content: "" }),
    delta({ reasoning_content: "think" }),
    delta({ reasoning: " more" }),
    delta({ content: "Hel" }),
    delta({ content: "lo" }),
    delta({}, "stop"),
    usageChunk,
    "[DONE]",
  ]);
  assert.deepEqual(parts, [
    { type: "start", id: "chatcmpl-1", model: "up", created: 100 },
    { type: "reasoning_start", index: 0 },
    { type: "reasoning_delta", index: 0, text: "think" },
    { type: "reasoning_delta", index: 0, text: " more" },
    { type: "reasoning_end", index: 0 },
    { type: "text_start", index: 1 },
    { type: "text_delta", index: 1, text: "Hel" },
    { type: "text_delta", index: 1, text: "lo" },
    { type: "text_end", index: 1 },
    {
      type: "finish",
      stopReason: "end_turn",
      usage: {
        inputTokens: 9,
        outputTokens: 4,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      },
    },
  ]);
});

Deno.test("decodeStream keeps interleaved parallel tool calls apart", async () => {
  const call = (index: number, fn: Record<string, unknown>, id?: string) =>
    delta({ tool_calls: [{ index, ...(id ? { id, type: "function" } : {}), function: fn }] });
  const parts = await decode([
    delta({ role: "assistant", content: "Checking." }),
    call(0, { name: "weather", arguments: "" }, "call_a"),
    call(1, { name: "time", arguments: "" }, "call_b"),
    call(0, { arguments: '{"city":' }),
    call(1, { arguments: '{"tz":' }),
    call(0, { arguments: '"Paris"}' }),
    call(1, { arguments: '"CET"}' }),
    delta({}, "tool_calls"),
    "[DONE]",
  ]);
  const starts = ofType(parts, "tool_call_start");
  assert.deepEqual(starts, [
    { type: "tool_call_start", index: 1, id: "call_a", name: "weather", kind: "function" },
    { type: "tool_call_start", index: 2, id: "call_b", name: "time", kind: "function" },
  ]);
  const args = (index: number) =>
    ofType(parts, "tool_call_delta").filter((p) => p.index === index).map((p) => p.delta).join("");
  assert.equal(args(1), '{"city":"Paris"}');
  assert.equal(args(2), '{"tz":"CET"}');
  assert.deepEqual(ofType(parts, "tool_call_end").map((p) => p.index), [1, 2]);
  const textEnd = parts.findIndex((p) => p.type === "text_end");
  const firstTool = parts.findIndex((p) => p.type === "tool_call_start");
  assert.ok(textEnd < firstTool, "the text block closes before the first tool call");
  assert.equal(parts.at(-1)?.type, "finish");
  assert.equal((parts.at(-1) as { stopReason: string }).stopReason, "tool_use");
});

Deno.test("decodeStream restores shortened names and unwraps custom tool input", async () => {
  const long = "mcp__files__" + "read_".repeat(15);
  const request = coreRequest({
    tools: [
      { type: "function", name: long, parameters: { type: "object" } },
      { type: "custom", name: "apply_patch" },
    ],
  });
  const parts = await decode([
    delta({
      tool_calls: [{
        index: 0,
        id: "c0",
        type: "function",
        function: { name: shortenToolName(long), arguments: "{}" },
      }],
    }),
    delta({
      tool_calls: [{
        index: 1,
        id: "c1",
        type: "function",
        function: { name: "apply_patch", arguments: '{"inp' },
      }],
    }),
    delta({ tool_calls: [{ index: 1, function: { arguments: 'ut":"*** Begin\\n"}' } }] }),
    delta({}, "tool_calls"),
    "[DONE]",
  ], request);
  const starts = ofType(parts, "tool_call_start");
  assert.equal(starts[0]?.name, long);
  assert.equal(starts[1]?.kind, "custom");
  const custom = ofType(parts, "tool_call_delta").filter((p) => p.index === starts[1]?.index);
  assert.deepEqual(custom.map((p) => p.delta), ["*** Begin\n"]);
});

Deno.test("decodeStream synthesizes missing ids and waits for a late name", async () => {
  const parts = await decode([
    delta({ tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] }),
    delta({ tool_calls: [{ index: 0, function: { name: "f", arguments: ":1}" } }] }),
    delta({}, "stop"),
  ]);
  const start = ofType(parts, "tool_call_start")[0];
  assert.equal(start?.id, "call_chatcmpl1_0");
  assert.equal(start?.name, "f");
  assert.equal(ofType(parts, "tool_call_delta").map((p) => p.delta).join(""), '{"a":1}');
  assert.equal((parts.at(-1) as { stopReason: string }).stopReason, "tool_use");
});

Deno.test("decodeStream matches index-less tool calls by id", async () => {
  const parts = await decode([
    delta({ tool_calls: [{ id: "x", function: { name: "f", arguments: "{}" } }] }),
    delta({ tool_calls: [{ id: "y", function: { name: "g", arguments: "{}" } }] }),
    delta({}, "tool_calls"),
    "[DONE]",
  ]);
  assert.deepEqual(ofType(parts, "tool_call_start").map((p) => [p.id, p.index]), [["x", 0], [
    "y",
    1,
  ]]);
});

Deno.test("decodeStream joins refusal fragments into the finish part's stop details", async () => {
  const parts = await decode([
    delta({ role: "assistant", content: "", refusal: null }),
    delta({ refusal: "I can't" }),
    delta({ refusal: " help." }),
    delta({}, "stop"),
    "[DONE]",
  ]);
  assert.deepEqual(parts.map((p) => p.type), ["start", "finish"]);
  const finish = parts.at(-1) as Extract<StreamPart, { type: "finish" }>;
  assert.equal(finish.stopReason, "refusal");
  assert.deepEqual(finish.stopDetails, { explanation: "I can't help." });
  const plain = await decode([delta({ content: "ok" }), delta({}, "stop"), "[DONE]"]);
  assert.equal("stopDetails" in plain.at(-1)!, false);
});

Deno.test("decodeStream reports in-stream errors and stops", async () => {
  const parts = await decode([
    delta({ content: "a" }),
    { error: { message: "overloaded now", type: "server_error", code: "overloaded" } },
    delta({ content: "ignored" }),
  ]);
  const last = parts.at(-1);
  assert.equal(last?.type, "error");
  assert.equal(last?.type === "error" && last.error.status, 503);
  assert.equal(joined(parts, "text_delta"), "a");
});

Deno.test("decodeStream errors on a stream without finish_reason or [DONE], and on bad JSON", async () => {
  const truncated = await decode([delta({ content: "partial" })]);
  const last = truncated.at(-1);
  assert.equal(last?.type === "error" && last.error.code, "stream_incomplete");
  const bad = await decode(["{not json"]);
  assert.deepEqual(bad.map((p) => p.type), ["error"]);
});

Deno.test("decodeStream finishes after a finish_reason even without [DONE]", async () => {
  const parts = await decode([delta({ content: "x" }), delta({}, "length")]);
  assert.deepEqual(parts.map((p) => p.type), [
    "start",
    "text_start",
    "text_delta",
    "text_end",
    "finish",
  ]);
  assert.equal((parts.at(-1) as { stopReason: string }).stopReason, "max_tokens");
});
