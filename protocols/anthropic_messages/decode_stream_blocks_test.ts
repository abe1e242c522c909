import assert from "node:assert/strict";
import type { StreamPart } from "../../core/stream.ts";
import { type Block, deltaBlock, startBlock, stopBlock } from "./decode_stream_blocks.ts";
import { coreRequest } from "./testing.ts";
import { upstreamToolResolver } from "./upstream_tools.ts";

/** A sink that collects what is put in it. */
const collect = () => {
  const parts: StreamPart[] = [];
  return { parts, out: { enqueue: (part: StreamPart) => void parts.push(part) } };
};
const resolve = upstreamToolResolver(
  coreRequest({ tools: [{ type: "custom", name: "apply_patch" }] }),
);

Deno.test("startBlock opens text and thinking with the content they came with", () => {
  const { parts, out } = collect();
  assert.deepEqual(startBlock(out, 3, { type: "text", text: "Hi" }, resolve), {
    kind: "text",
    index: 3,
  });
  assert.deepEqual(
    startBlock(out, 4, { type: "thinking", thinking: "Hm", signature: "sig" }, resolve),
    { kind: "reasoning", index: 4, redacted: false },
  );
  assert.deepEqual(startBlock(out, 5, { type: "redacted_thinking", data: "x" }, resolve), {
    kind: "reasoning",
    index: 5,
    redacted: true,
  });
  assert.deepEqual(parts, [
    { type: "text_start", index: 3 },
    { type: "text_delta", index: 3, text: "Hi" },
    { type: "reasoning_start", index: 4 },
    { type: "reasoning_delta", index: 4, text: "Hm" },
    { type: "reasoning_token", index: 4, token: { vendor: "anthropic", value: "sig" } },
    { type: "reasoning_start", index: 5 },
    { type: "reasoning_token", index: 5, token: { vendor: "anthropic", value: "x" } },
  ]);
});

Deno.test("startBlock opens a tool call with its resolved kind and skips server tool blocks", () => {
  const { parts, out } = collect();
  const tool = { type: "tool_use", id: "toolu_1", name: "apply_patch", input: {} };
  assert.deepEqual(startBlock(out, 0, tool, resolve), {
    kind: "tool",
    index: 0,
    toolKind: "custom",
    args: "",
    start: {},
  });
  assert.equal(startBlock(out, 1, { type: "server_tool_use", name: "web_search" }, resolve), null);
  assert.deepEqual(parts, [
    { type: "tool_call_start", index: 0, id: "toolu_1", name: "apply_patch", kind: "custom" },
  ]);
});

Deno.test("deltaBlock passes on deltas of the block's kind and drops the rest", () => {
  const { parts, out } = collect();
  const text: Block = { kind: "text", index: 0 };
  deltaBlock(out, text, { type: "text_delta", text: "a" });
  deltaBlock(out, text, { type: "thinking_delta", thinking: "no" });
  deltaBlock(out, text, { type: "text_delta", text: "" });
  deltaBlock(out, text, { type: "citations_delta", citation: {} });
  const tool: Block = { kind: "tool", index: 1, toolKind: "function", args: "", start: {} };
  deltaBlock(out, tool, { type: "input_json_delta", partial_json: '{"a":' });
  deltaBlock(out, tool, { type: "input_json_delta", partial_json: "1}" });
  assert.equal(tool.args, '{"a":1}');
  assert.deepEqual(parts, [
    { type: "text_delta", index: 0, text: "a" },
    { type: "tool_call_delta", index: 1, delta: '{"a":' },
    { type: "tool_call_delta", index: 1, delta: "1}" },
  ]);
});

Deno.test("deltaBlock buffers a custom tool's input without emitting it", () => {
  const { parts, out } = collect();
  const tool: Block = { kind: "tool", index: 0, toolKind: "custom", args: "", start: {} };
  deltaBlock(out, tool, { type: "input_json_delta", partial_json: '{"input":"x"}' });
  assert.equal(tool.args, '{"input":"x"}');
  assert.deepEqual(parts, []);
});

Deno.test("stopBlock ends each kind; a tool's unsent arguments go out before its end", () => {
  const { parts, out } = collect();
  stopBlock(out, { kind: "text", index: 0 });
  stopBlock(out, { kind: "reasoning", index: 1, redacted: true });
  stopBlock(out, { kind: "tool", index: 2, toolKind: "function", args: "", start: {} });
  stopBlock(out, { kind: "tool", index: 3, toolKind: "function", args: "{}", start: {} });
  const custom = { kind: "tool", index: 4, toolKind: "custom", start: {} } as const;
  stopBlock(out, { ...custom, args: '{"input":"*** Begin"}' });
  stopBlock(out, { ...custom, args: '{"input": "cut' });
  assert.deepEqual(parts, [
    { type: "text_end", index: 0 },
    { type: "reasoning_end", index: 1, redacted: true },
    { type: "tool_call_delta", index: 2, delta: "{}" },
    { type: "tool_call_end", index: 2 },
    { type: "tool_call_end", index: 3 },
    { type: "tool_call_delta", index: 4, delta: "*** Begin" },
    { type: "tool_call_end", index: 4 },
    { type: "tool_call_delta", index: 4, delta: '{"input": "cut' },
    { type: "tool_call_end", index: 4 },
  ]);
});
