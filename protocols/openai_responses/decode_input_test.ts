import assert from "node:assert/strict";
import { decodeInput } from "./decode_input.ts";

Deno.test("decodeInput: consecutive assistant-side items merge into one message in order", () => {
  const { value, warnings } = decodeInput([
    { role: "user", content: "q" },
    { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me" }] },
    { type: "function_call", id: "fc_1", call_id: "c1", name: "f", arguments: "{}" },
    { type: "custom_tool_call", id: "ctc_1", call_id: "c2", name: "apply_patch", input: "raw" },
    {
      type: "local_shell_call",
      id: "lsh_1",
      call_id: "c3",
      action: { type: "exec", command: ["ls", "-a"], env: {}, working_directory: "/tmp" },
    },
    { type: "function_call_output", call_id: "c1", output: "ok" },
    { type: "custom_tool_call_output", call_id: "c2", output: "done" },
    { type: "local_shell_call_output", call_id: "c3", output: "a\nb" },
    { role: "assistant", content: "final" },
  ]);
  assert.deepEqual(warnings, []);
  assert.deepEqual(value, [
    { role: "user", content: [{ type: "text", text: "q" }] },
    {
      role: "assistant",
      content: [
        {
          type: "reasoning",
          text: "",
          summary: true,
          token: { vendor: "openai", value: "enc" },
          itemId: "rs_1",
        },
        { type: "text", text: "Let me" },
        {
          type: "tool_call",
          id: "c1",
          name: "f",
          arguments: "{}",
          kind: "function",
          itemId: "fc_1",
        },
        {
          type: "tool_call",
          id: "c2",
          name: "apply_patch",
          arguments: "raw",
          kind: "custom",
          itemId: "ctc_1",
        },
        {
          type: "tool_call",
          id: "c3",
          name: "local_shell",
          arguments: '{"command":["ls","-a"],"working_directory":"/tmp"}',
          kind: "local_shell",
          itemId: "lsh_1",
        },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool_result",
          toolCallId: "c1",
          content: [{ type: "text", text: "ok" }],
          kind: "function",
        },
        {
          type: "tool_result",
          toolCallId: "c2",
          content: [{ type: "text", text: "done" }],
          kind: "custom",
        },
        {
          type: "tool_result",
          toolCallId: "c3",
          content: [{ type: "text", text: "a\nb" }],
          kind: "local_shell",
        },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "final" }] },
  ]);
});

Deno.test("decodeInput: system and developer messages stay in place with their flavor", () => {
  const { value } = decodeInput([
    { role: "user", content: "a" },
    { role: "system", content: "s" },
    { role: "developer", content: [{ type: "input_text", text: "d" }] },
  ]);
  assert.deepEqual(value.slice(1), [
    { role: "system", content: [{ type: "text", text: "s" }], flavor: "system" },
    { role: "system", content: [{ type: "text", text: "d" }], flavor: "developer" },
  ]);
});

Deno.test("decodeInput: an Anthropic signature in a gatehouse envelope comes back as such", () => {
  const { value } = decodeInput([
    {
      type: "reasoning",
      summary: [{ type: "summary_text", text: "thinking" }],
      encrypted_content: "gatehouse.v1.anthropic.sig",
    },
    { type: "reasoning", summary: [], encrypted_content: "gatehouse.v1.anthropic-redacted.data" },
  ]);
  assert.deepEqual(value[0]?.content, [
    {
      type: "reasoning",
      text: "thinking",
      summary: true,
      token: { vendor: "anthropic", value: "sig" },
    },
    {
      type: "reasoning",
      text: "",
      summary: true,
      token: { vendor: "anthropic", value: "data" },
      redacted: true,
    },
  ]);
});

Deno.test("decodeInput: tool outputs may be parts; raw reasoning text stands in for a summary", () => {
  const { value, warnings } = decodeInput([
    {
      type: "function_call_output",
      call_id: "c",
      output: [
        { type: "input_text", text: "see" },
        { type: "input_image", image_url: "https://x/y.png", detail: "low" },
      ],
    },
    { type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "raw" }] },
    {
      type: "reasoning",
      summary: [{ type: "summary_text", text: "sum" }],
      content: [{ type: "reasoning_text", text: "raw" }],
    },
  ]);
  assert.deepEqual(value[0]?.content, [{
    type: "tool_result",
    toolCallId: "c",
    kind: "function",
    content: [
      { type: "text", text: "see" },
      { type: "image", source: { kind: "url", url: "https://x/y.png" }, detail: "low" },
    ],
  }]);
  assert.deepEqual(value[1]?.content, [
    { type: "reasoning", text: "raw", summary: false },
    { type: "reasoning", text: "sum", summary: true },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["input.2.content"]);
});

Deno.test("decodeInput: items gatehouse cannot carry are dropped with a warning", () => {
  const { value, warnings } = decodeInput([
    { type: "item_reference", id: "msg_1" },
    { type: "web_search_call", id: "ws_1", status: "completed" },
    {
      role: "assistant",
      content: [{ type: "output_text", text: "x" }, { type: "input_image", image_url: "u" }],
    },
    { type: "local_shell_call_output", output: "orphan" },
  ]);
  assert.deepEqual(value, [{ role: "assistant", content: [{ type: "text", text: "x" }] }]);
  assert.deepEqual(warnings.map((w) => w.field), [
    "input.0",
    "input.1.type",
    "input.2.content",
    "input.3",
  ]);
  assert.match(warnings[0]?.message ?? "", /item_reference/);
});

Deno.test("decodeInput: a string and an absent input", () => {
  assert.deepEqual(decodeInput("hi").value, [{
    role: "user",
    content: [{ type: "text", text: "hi" }],
  }]);
  assert.deepEqual(decodeInput(undefined).value, []);
});
