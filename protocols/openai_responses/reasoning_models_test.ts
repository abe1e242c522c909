import assert from "node:assert/strict";
import { acceptsReasoning } from "./reasoning_models.ts";

Deno.test("acceptsReasoning: known non-reasoning families only", () => {
  for (const id of ["gpt-5", "gpt-5.2-codex", "o3", "o4-mini", "gpt-5-mini-2025-08-07", "grok-4"]) {
    assert.equal(acceptsReasoning(id), true, id);
  }
  for (
    const id of [
      "gpt-4o",
      "gpt-4.1-mini",
      "openai/gpt-4o-mini",
      "gpt-3.5-turbo",
      "chatgpt-4o-latest",
      "gpt-5-chat-latest",
      "gpt-5.1-chat",
    ]
  ) {
    assert.equal(acceptsReasoning(id), false, id);
  }
});
