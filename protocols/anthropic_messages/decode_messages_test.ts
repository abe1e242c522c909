import assert from "node:assert/strict";
import { decodeMessages, decodeSystem } from "./decode_messages.ts";

const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: id });

Deno.test("decodeMessages splits a mixed user turn into tool and user messages in order", () => {
  const { value, warnings } = decodeMessages([
    {
      role: "user",
      content: [result("a"), result("b"), { type: "text", text: "more" }, result("c")],
    },
  ]);
  assert.deepEqual(warnings, []);
  assert.deepEqual(value.map((m) => m.role), ["tool", "user", "tool"]);
  assert.deepEqual(value[0]?.content.map((p) => p.type === "tool_result" && p.toolCallId), [
    "a",
    "b",
  ]);
  assert.deepEqual(value[2]?.content.map((p) => p.type === "tool_result" && p.toolCallId), ["c"]);
});

Deno.test("decodeMessages keeps system messages in place and strings as text", () => {
  const { value, warnings } = decodeMessages([
    { role: "user", content: "hi" },
    { role: "system", content: [{ type: "text", text: "rule" }, { type: "image", source: {} }] },
    { role: "assistant", content: "hello" },
  ]);
  assert.deepEqual(value, [
    { role: "user", content: [{ type: "text", text: "hi" }] },
    { role: "system", content: [{ type: "text", text: "rule" }] },
    { role: "assistant", content: [{ type: "text", text: "hello" }] },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["messages.1.content.1.type"]);
});

Deno.test("decodeMessages reads thinking, redacted thinking and tool use, dropping server blocks", () => {
  const { value, warnings } = decodeMessages([
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "thinking", thinking: "unsigned", signature: "" },
        { type: "redacted_thinking", data: "opaque" },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
        { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
        { type: "tool_use", id: "toolu_1", name: "Read", input: {} },
      ],
    },
  ]);
  assert.deepEqual(value[0]?.content, [
    { type: "reasoning", text: "hmm", token: { vendor: "anthropic", value: "sig" } },
    { type: "reasoning", text: "unsigned" },
    {
      type: "reasoning",
      text: "",
      redacted: true,
      token: { vendor: "anthropic", value: "opaque" },
    },
    { type: "tool_call", id: "toolu_1", name: "Read", arguments: "{}", kind: "function" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), [
    "messages.0.content.3.type",
    "messages.0.content.4.type",
  ]);
});

Deno.test("decodeMessages drops assistant-only blocks from a user turn with a warning", () => {
  const { value, warnings } = decodeMessages([
    { role: "user", content: [{ type: "thinking", thinking: "x", signature: "s" }] },
    { role: "user", content: [] },
  ]);
  assert.deepEqual(value, [{ role: "user", content: [] }, { role: "user", content: [] }]);
  assert.deepEqual(warnings.map((w) => w.field), ["messages.0.content.0.type"]);
});

Deno.test("decodeSystem reads a string or text blocks", () => {
  assert.deepEqual(decodeSystem("be brief").value, [{ type: "text", text: "be brief" }]);
  assert.deepEqual(decodeSystem(undefined).value, []);
  assert.deepEqual(
    decodeSystem([{ type: "text", text: "a", cache_control: { type: "ephemeral" } }]).value,
    [{ type: "text", text: "a", cacheControl: { type: "ephemeral" } }],
  );
});
