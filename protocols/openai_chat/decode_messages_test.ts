import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { decodeMessages } from "./decode_messages.ts";
import { type ChatMessage, ChatMessageSchema } from "./schemas.ts";

const msgs = (...raw: unknown[]): ChatMessage[] => raw.map((m) => ChatMessageSchema.parse(m));

Deno.test("decodeMessages lifts leading system/developer messages and keeps later ones in place", () => {
  const { value } = decodeMessages(msgs(
    { role: "system", content: "be brief" },
    { role: "developer", content: [{ type: "text", text: "use tools" }] },
    { role: "user", content: "hi" },
    { role: "developer", content: "late note" },
  ));
  assert.deepEqual(value.system, [
    { type: "text", text: "be brief" },
    { type: "text", text: "use tools" },
  ]);
  assert.deepEqual(value.messages, [
    { role: "user", content: [{ type: "text", text: "hi" }] },
    { role: "system", content: [{ type: "text", text: "late note" }], flavor: "developer" },
  ]);
});

Deno.test("decodeMessages reads user images, PDFs, text files and file ids", () => {
  const text = btoa("plain words");
  const { value, warnings } = decodeMessages(msgs({
    role: "user",
    content: [
      { type: "text", text: "look", cache_control: { type: "ephemeral" } },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBO", detail: "low" } },
      { type: "image_url", image_url: { url: "https://x/y.jpg", detail: "original" } },
      { type: "file", file: { file_data: "data:application/pdf;base64,JVBE", filename: "a.pdf" } },
      { type: "file", file: { file_data: `data:text/plain;base64,${text}` } },
      { type: "file", file: { file_id: "file-123" } },
    ],
  }));
  assert.deepEqual(value.messages[0]?.content, [
    { type: "text", text: "look", cacheControl: { type: "ephemeral" } },
    {
      type: "image",
      source: { kind: "base64", mediaType: "image/png", data: "iVBO" },
      detail: "low",
    },
    { type: "image", source: { kind: "url", url: "https://x/y.jpg" } },
    {
      type: "document",
      source: { kind: "base64", mediaType: "application/pdf", data: "JVBE" },
      filename: "a.pdf",
    },
    { type: "document", source: { kind: "text", mediaType: "text/plain", text: "plain words" } },
    { type: "document", source: { kind: "file_id", fileId: "file-123" } },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["messages.0.content.2.image_url.detail"]);
});

Deno.test("decodeMessages refuses audio input, file parts without data, and legacy functions", () => {
  const audio = msgs({
    role: "user",
    content: [{ type: "input_audio", input_audio: { data: "AAA", format: "wav" } }],
  });
  assert.throws(() => decodeMessages(audio), (e: GatewayError) => {
    assert.equal(e.status, 400);
    assert.equal(e.param, "messages.0.content.0");
    assert.match(e.message, /audio input cannot be translated/);
    return true;
  });
  const empty = msgs({ role: "user", content: [{ type: "file", file: {} }] });
  assert.throws(() => decodeMessages(empty), /file_data or file_id/);
  const legacy = msgs({ role: "function", name: "f", content: "x" });
  assert.throws(() => decodeMessages(legacy), /legacy `function` role/);
  const call = msgs({
    role: "assistant",
    content: null,
    function_call: { name: "f", arguments: "{}" },
  });
  assert.throws(() => decodeMessages(call), /`function_call` cannot be translated/);
});

Deno.test("decodeMessages reads assistant reasoning, refusals and both tool call kinds", () => {
  const { value, warnings } = decodeMessages(msgs({
    role: "assistant",
    reasoning_content: "thinking",
    content: "answer",
    refusal: "no",
    tool_calls: [
      { id: "c1", type: "function", function: { name: "get", arguments: '{"a":1}' } },
      { id: "c2", type: "custom", custom: { name: "apply_patch", input: "*** Begin" } },
    ],
  }));
  assert.deepEqual(value.messages[0]?.content, [
    { type: "reasoning", text: "thinking" },
    { type: "text", text: "answer" },
    { type: "text", text: "no" },
    { type: "tool_call", id: "c1", name: "get", arguments: '{"a":1}', kind: "function" },
    { type: "tool_call", id: "c2", name: "apply_patch", arguments: "*** Begin", kind: "custom" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["messages.0.refusal"]);
});

Deno.test("decodeMessages takes `reasoning` as well and reports names", () => {
  const { value, warnings } = decodeMessages(msgs(
    { role: "user", content: "q", name: "ann" },
    { role: "assistant", reasoning: "vllm style", content: [{ type: "refusal", refusal: "r" }] },
  ));
  assert.deepEqual(value.messages[1]?.content, [
    { type: "reasoning", text: "vllm style" },
    { type: "text", text: "r" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["messages.0.name", "messages.1.content.0"]);
});

Deno.test("decodeMessages merges consecutive tool messages and keeps each call's kind", () => {
  const { value } = decodeMessages(msgs(
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "a", type: "function", function: { name: "f", arguments: "{}" } },
        { id: "b", type: "custom", custom: { name: "g", input: "raw" } },
      ],
    },
    { role: "tool", tool_call_id: "a", content: "one" },
    { role: "tool", tool_call_id: "b", content: [{ type: "text", text: "two" }] },
  ));
  assert.equal(value.messages.length, 3);
  assert.deepEqual(value.messages[2], {
    role: "tool",
    content: [
      {
        type: "tool_result",
        toolCallId: "a",
        content: [{ type: "text", text: "one" }],
        kind: "function",
      },
      {
        type: "tool_result",
        toolCallId: "b",
        content: [{ type: "text", text: "two" }],
        kind: "custom",
      },
    ],
  });
});
