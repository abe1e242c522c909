import assert from "node:assert/strict";
import { encodeMessages } from "./encode_messages.ts";
import { coreRequest } from "./testing.ts";

Deno.test("encodeMessages lifts leading system messages and keeps later ones in place", () => {
  const { value, warnings } = encodeMessages(coreRequest({
    system: [{ type: "text", text: "base" }],
    messages: [
      { role: "system", content: [{ type: "text", text: "dev rule" }], flavor: "developer" },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "system", content: [{ type: "text", text: "reminder" }] },
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
    ],
  }));
  assert.equal(warnings.length, 0);
  assert.deepEqual(value.system, [{ type: "text", text: "base" }, {
    type: "text",
    text: "dev rule",
  }]);
  assert.deepEqual(value.messages, [
    { role: "user", content: [{ type: "text", text: "hi" }] },
    { role: "system", content: [{ type: "text", text: "reminder" }] },
    { role: "assistant", content: [{ type: "text", text: "hello" }] },
  ]);
});

Deno.test("encodeMessages merges tool results into one user turn, results first", () => {
  const { value } = encodeMessages(coreRequest({
    messages: [
      { role: "user", content: [{ type: "text", text: "run both" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_call", id: "call_1", name: "a", arguments: "{}", kind: "function" },
          { type: "tool_call", id: "call_2", name: "b", arguments: "{}", kind: "function" },
        ],
      },
      {
        role: "tool",
        content: [{
          type: "tool_result",
          toolCallId: "call_1",
          content: [{ type: "text", text: "1" }],
        }],
      },
      { role: "user", content: [{ type: "text", text: "and note this" }] },
      {
        role: "tool",
        content: [{
          type: "tool_result",
          toolCallId: "call_2",
          content: [{ type: "text", text: "2" }],
        }],
      },
    ],
  }));
  assert.deepEqual(value.messages.map((m) => m.role), ["user", "assistant", "user"]);
  assert.deepEqual(value.messages[2]?.content.map((b) => b.type), [
    "tool_result",
    "tool_result",
    "text",
  ]);
});

Deno.test("encodeMessages merges consecutive assistant turns and drops empty ones", () => {
  const { value, warnings } = encodeMessages(coreRequest({
    messages: [
      { role: "user", content: [{ type: "text", text: "q" }] },
      { role: "assistant", content: [{ type: "reasoning", text: "unsigned" }] },
      { role: "user", content: [{ type: "text", text: "" }] },
      { role: "assistant", content: [{ type: "text", text: "a" }] },
      { role: "assistant", content: [{ type: "text", text: "b" }] },
    ],
  }));
  assert.deepEqual(value.messages, [
    { role: "user", content: [{ type: "text", text: "q" }] },
    { role: "assistant", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), [
    "messages.1.content.0",
    "messages.2.content.0",
    "messages.1",
    "messages.2",
  ]);
});

Deno.test("encodeMessages keeps a call and its result paired when ids need cleaning", () => {
  const { value } = encodeMessages(coreRequest({
    messages: [
      { role: "user", content: [{ type: "text", text: "q" }] },
      {
        role: "assistant",
        content: [{ type: "tool_call", id: "fc:1", name: "f", arguments: "{}", kind: "function" }],
      },
      { role: "tool", content: [{ type: "tool_result", toolCallId: "fc:1", content: [] }] },
    ],
  }));
  const use = value.messages[1]?.content[0] as { id: string };
  const result = value.messages[2]?.content[0] as { tool_use_id: string };
  assert.equal(use.id, "fc_1");
  assert.equal(result.tool_use_id, "fc_1");
});
