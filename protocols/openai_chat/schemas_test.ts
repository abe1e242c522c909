import assert from "node:assert/strict";
import { ChatCompletionRequestSchema, ChatMessageSchema, ChatToolChoiceSchema } from "./schemas.ts";

Deno.test("the request schema keeps unknown fields (loose objects)", () => {
  const parsed = ChatCompletionRequestSchema.parse({
    model: "m",
    messages: [{ role: "user", content: "x", extra: 1 }],
    brand_new_option: true,
  });
  assert.equal((parsed as Record<string, unknown>).brand_new_option, true);
  assert.equal((parsed.messages[0] as Record<string, unknown>).extra, 1);
});

Deno.test("the message schema accepts every role and rejects unknown ones", () => {
  for (const role of ["system", "developer", "user", "tool"]) {
    const message = role === "tool"
      ? { role, tool_call_id: "c", content: "x" }
      : { role, content: "x" };
    assert.equal(ChatMessageSchema.safeParse(message).success, true, role);
  }
  assert.equal(ChatMessageSchema.safeParse({ role: "assistant", content: null }).success, true);
  assert.equal(ChatMessageSchema.safeParse({ role: "function", name: "f" }).success, true);
  assert.equal(ChatMessageSchema.safeParse({ role: "robot", content: "x" }).success, false);
});

Deno.test("the tool choice schema rejects unknown strings", () => {
  assert.equal(ChatToolChoiceSchema.safeParse("auto").success, true);
  assert.equal(ChatToolChoiceSchema.safeParse("sometimes").success, false);
});
