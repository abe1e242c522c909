import assert from "node:assert/strict";
import { encodeInput, inputParts } from "./encode_input.ts";

const id = (name: string) => name;

Deno.test("encodeInput: assistant turns become message, reasoning and call items in order", () => {
  const { value, warnings } = encodeInput([
    {
      role: "assistant",
      content: [
        {
          type: "reasoning",
          text: "sum",
          token: { vendor: "openai", value: "enc" },
          itemId: "rs_1",
        },
        { type: "text", text: "a" },
        { type: "text", text: "b" },
        {
          type: "tool_call",
          id: "c1",
          name: "f",
          arguments: "{}",
          kind: "function",
          itemId: "fc_1",
        },
        { type: "tool_call", id: "c2", name: "p", arguments: "raw", kind: "custom" },
        {
          type: "tool_call",
          id: "c3",
          name: "local_shell",
          arguments: '{"command":["ls"]}',
          kind: "local_shell",
          itemId: "lsh_1",
        },
        { type: "reasoning", text: "signed", token: { vendor: "anthropic", value: "sig" } },
        { type: "reasoning", text: "plain" },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool_result", toolCallId: "c1", content: [{ type: "text", text: "r1" }] },
        { type: "tool_result", toolCallId: "c2", content: [{ type: "text", text: "r2" }] },
        {
          type: "tool_result",
          toolCallId: "c3",
          content: [{ type: "text", text: "r3" }],
          isError: true,
        },
      ],
    },
  ], id);
  assert.deepEqual(value, [
    {
      type: "reasoning",
      summary: [{ type: "summary_text", text: "sum" }],
      encrypted_content: "enc",
      id: "rs_1",
    },
    {
      type: "message",
      role: "assistant",
      content: [
        { type: "output_text", text: "a", annotations: [] },
        { type: "output_text", text: "b", annotations: [] },
      ],
    },
    { type: "function_call", call_id: "c1", name: "f", arguments: "{}", id: "fc_1" },
    { type: "custom_tool_call", call_id: "c2", name: "p", input: "raw" },
    {
      type: "local_shell_call",
      call_id: "c3",
      status: "completed",
      action: { type: "exec", command: ["ls"], env: {} },
      id: "lsh_1",
    },
    { type: "function_call_output", call_id: "c1", output: "r1" },
    { type: "custom_tool_call_output", call_id: "c2", output: "r2" },
    { type: "local_shell_call_output", call_id: "c3", output: "r3" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), [
    "messages.0.content.6",
    "messages.0.content.7",
    "messages.1.content.2.isError",
  ]);
  assert.match(warnings[0]?.message ?? "", /anthropic/);
});

Deno.test("encodeInput: user media and system flavors", () => {
  const { value, warnings } = encodeInput([
    { role: "system", content: [{ type: "text", text: "s", cacheControl: { type: "ephemeral" } }] },
    { role: "system", content: [{ type: "text", text: "d" }], flavor: "developer" },
    {
      role: "user",
      content: [
        { type: "image", source: { kind: "base64", mediaType: "image/png", data: "AA" } },
        { type: "image", source: { kind: "file_id", fileId: "f1" }, detail: "low" },
        { type: "document", source: { kind: "base64", mediaType: "application/pdf", data: "JV" } },
        {
          type: "document",
          source: { kind: "text", mediaType: "text/plain", text: "body" },
          title: "T",
        },
        { type: "document", source: { kind: "url", url: "https://x/a.pdf" } },
      ],
    },
  ], id);
  assert.deepEqual(value.map((i) => "role" in i ? i.role : i.type), [
    "system",
    "developer",
    "user",
  ]);
  assert.deepEqual((value[2] as { content: unknown }).content, [
    { type: "input_image", image_url: "data:image/png;base64,AA", detail: "auto" },
    { type: "input_image", file_id: "f1", detail: "low" },
    { type: "input_file", file_data: "data:application/pdf;base64,JV", filename: "document-2.pdf" },
    { type: "input_text", text: "T\n\nbody" },
    { type: "input_file", file_url: "https://x/a.pdf" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["cache_control"]);
});

Deno.test("encodeInput: result kinds follow the call when the result does not say", () => {
  const { value } = encodeInput([
    {
      role: "assistant",
      content: [{ type: "tool_call", id: "c", name: "p", arguments: "x", kind: "custom" }],
    },
    {
      role: "tool",
      content: [{
        type: "tool_result",
        toolCallId: "c",
        content: [{ type: "text", text: "a" }, {
          type: "image",
          source: { kind: "url", url: "u" },
        }],
      }],
    },
  ], (n) => `short_${n}`);
  assert.deepEqual(value, [
    { type: "custom_tool_call", call_id: "c", name: "short_p", input: "x" },
    {
      type: "custom_tool_call_output",
      call_id: "c",
      output: [{ type: "input_text", text: "a" }, {
        type: "input_image",
        image_url: "u",
        detail: "auto",
      }],
    },
  ]);
  assert.deepEqual(inputParts([]), []);
});
