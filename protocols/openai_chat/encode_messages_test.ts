import assert from "node:assert/strict";
import { shortenToolName } from "../tool_names.ts";
import { encodeMessages } from "./encode_messages.ts";
import { coreRequest } from "./test_support.ts";

const openai = { compat: false, providerName: "openai" };
const compat = { compat: true, providerName: "deepseek" };

Deno.test("encodeMessages puts system text first and keeps in-conversation system messages", () => {
  const { value } = encodeMessages(
    coreRequest({
      system: [{ type: "text", text: "a" }, { type: "text", text: "b" }],
      messages: [
        { role: "user", content: [{ type: "text", text: "hi" }] },
        { role: "system", content: [{ type: "text", text: "reminder" }] },
      ],
    }),
    openai,
  );
  assert.deepEqual(value, [
    { role: "system", content: "a\n\nb" },
    { role: "user", content: "hi" },
    { role: "system", content: "reminder" },
  ]);
});

Deno.test("encodeMessages encodes assistant tool calls, wrapping custom input and shortening names", () => {
  const long = "mcp__server__" + "x".repeat(70);
  const { value } = encodeMessages(
    coreRequest({
      messages: [{
        role: "assistant",
        content: [
          { type: "text", text: "calling" },
          { type: "tool_call", id: "c1", name: long, arguments: "", kind: "function" },
          {
            type: "tool_call",
            id: "c2",
            name: "apply_patch",
            arguments: "*** Begin",
            kind: "custom",
          },
        ],
      }],
    }),
    openai,
  );
  assert.deepEqual(value, [{
    role: "assistant",
    content: "calling",
    tool_calls: [
      { id: "c1", type: "function", function: { name: shortenToolName(long), arguments: "{}" } },
      {
        id: "c2",
        type: "function",
        function: { name: "apply_patch", arguments: '{"input":"*** Begin"}' },
      },
    ],
  }]);
});

Deno.test("encodeMessages drops reasoning for OpenAI, replays it as reasoning_content for compat", () => {
  const request = coreRequest({
    messages: [{
      role: "assistant",
      content: [
        { type: "reasoning", text: "think", token: { vendor: "anthropic", value: "sig" } },
        { type: "tool_call", id: "c", name: "f", arguments: "{}", kind: "function" },
      ],
    }],
  });
  const toOpenai = encodeMessages(request, openai);
  assert.deepEqual(toOpenai.value, [{
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
  }]);
  assert.deepEqual(toOpenai.warnings.map((w) => w.field), ["messages.0.content.0"]);
  assert.equal(
    toOpenai.warnings[0]?.message,
    "a reasoning token issued by anthropic cannot be sent to a chat upstream; the opaque " +
      "reasoning is dropped.",
  );
  const toCompat = encodeMessages(request, compat);
  assert.equal(
    (toCompat.value[0] as { reasoning_content?: string }).reasoning_content,
    "think",
  );
});

Deno.test("encodeMessages skips an assistant turn left empty", () => {
  const { value } = encodeMessages(
    coreRequest({ messages: [{ role: "assistant", content: [{ type: "reasoning", text: "" }] }] }),
    openai,
  );
  assert.deepEqual(value, []);
});

Deno.test("encodeMessages emits one tool message per result and moves images to a user message", () => {
  const { value, warnings } = encodeMessages(
    coreRequest({
      messages: [{
        role: "tool",
        content: [
          { type: "tool_result", toolCallId: "a", content: [{ type: "text", text: "ok" }] },
          {
            type: "tool_result",
            toolCallId: "b",
            isError: true,
            content: [
              { type: "text", text: "shot" },
              { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBO" } },
            ],
          },
        ],
      }],
    }),
    openai,
  );
  assert.deepEqual(value, [
    { role: "tool", tool_call_id: "a", content: "ok" },
    { role: "tool", tool_call_id: "b", content: "shot" },
    {
      role: "user",
      content: [
        { type: "text", text: "Attachments of tool result b:" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } },
      ],
    },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), [
    "messages.0.content.1.isError",
    "messages.0.content.1.content",
  ]);
});

Deno.test("encodeMessages reports dropped cache markers once", () => {
  const { warnings } = encodeMessages(
    coreRequest({
      system: [{ type: "text", text: "s", cacheControl: { type: "ephemeral" } }],
      messages: [{
        role: "user",
        content: [{ type: "text", text: "u", cacheControl: { type: "ephemeral" } }],
      }],
    }),
    compat,
  );
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!.message, /^2 prompt-cache marker/);
});
