import assert from "node:assert/strict";
import { usageOfBody, usageOfEvent } from "./tap_usage.ts";
import { fixtureJson, fixtureStreams } from "./test_util.ts";

Deno.test("usageOfEvent: only terminal events are parsed, by name first", async () => {
  const [events] = await fixtureStreams("openai-reasoning-encrypted-content.1");
  const usages = (events ?? []).map(usageOfEvent).filter((u) => u !== null);
  assert.deepEqual(usages, [{
    inputTokens: 134,
    outputTokens: 28,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  }]);
  assert.equal(usageOfEvent({ event: "response.output_text.delta", data: "not json" }), null);
  assert.equal(usageOfEvent({ event: "response.completed", data: "{broken" }), null);
  assert.equal(
    usageOfEvent({
      data: '{"type":"response.output_text.delta","delta":"\\"response.completed\\""}',
    }),
    null,
  );
  const dataOnly = usageOfEvent({
    data: JSON.stringify({
      type: "response.incomplete",
      response: { usage: { output_tokens: 3 } },
    }),
  });
  assert.equal(dataOnly?.outputTokens, 3);
  assert.equal(
    usageOfEvent({
      event: "response.failed",
      data: '{"type":"response.failed","response":{"usage":null}}',
    }),
    null,
  );
});

Deno.test("usageOfBody: usage of a body, null without", async () => {
  const usage = usageOfBody(await fixtureJson("openai-custom-tool.1"));
  assert.deepEqual(usage, {
    inputTokens: 50,
    outputTokens: 20,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  });
  assert.equal(usageOfBody(await fixtureJson("openai-error.1")), null);
  assert.equal(usageOfBody("x"), null);
});
