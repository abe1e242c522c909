import assert from "node:assert/strict";
import { ChatCompletionChunkSchema, contentText, reasoningText } from "./response_schemas.ts";

Deno.test("contentText reads strings and text part arrays", () => {
  assert.equal(contentText(null), "");
  assert.equal(contentText("abc"), "abc");
  assert.equal(
    contentText([{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }]),
    "ab",
  );
});

Deno.test("reasoningText prefers reasoning_content and accepts a string reasoning", () => {
  assert.equal(reasoningText({ reasoning_content: "x", reasoning: "y" }), "x");
  assert.equal(reasoningText({ reasoning_content: "", reasoning: "y" }), "y");
  assert.equal(reasoningText({ reasoning: { effort: "low" } }), "");
});

Deno.test("the chunk schema tolerates nulls and missing fields", () => {
  const parsed = ChatCompletionChunkSchema.safeParse({
    id: "x",
    choices: [{ index: 0, delta: { content: null, tool_calls: null }, finish_reason: null }],
    usage: null,
  });
  assert.equal(parsed.success, true);
});
