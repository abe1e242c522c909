import assert from "node:assert/strict";
import { mockUpstream } from "./mock_upstream.ts";

Deno.test("mockUpstream: a body sent as bytes is read as the same body sent as text", async () => {
  const fetch = mockUpstream(0);
  const body = JSON.stringify({
    model: "mock-model",
    messages: [{ role: "user", content: "café ☕ ".repeat(4_000) }],
  });
  const answers = [];
  for (const sent of [body, new TextEncoder().encode(body)]) {
    const response = await fetch("http://mock/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: sent,
    });
    assert.equal(response.status, 200);
    const answer = await response.json() as { model: string; object: string };
    answers.push({ model: answer.model, object: answer.object });
  }
  assert.deepEqual(answers[0], { model: "mock-model", object: "chat.completion" });
  assert.deepEqual(answers[1], answers[0]);
});
