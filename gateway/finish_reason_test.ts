import assert from "node:assert/strict";
import { finishReasonOfEvent, finishReasonsOfBody } from "./finish_reason.ts";

Deno.test("finish reasons: chat, Anthropic and Responses bodies", () => {
  assert.deepEqual(
    finishReasonsOfBody({ choices: [{ finish_reason: "stop" }, { finish_reason: "length" }] }),
    ["stop", "length"],
  );
  assert.deepEqual(finishReasonsOfBody({ type: "message", stop_reason: "end_turn" }), ["end_turn"]);
  assert.deepEqual(finishReasonsOfBody({ object: "response", status: "completed" }), ["completed"]);
  assert.deepEqual(
    finishReasonsOfBody({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    }),
    ["max_output_tokens"],
  );
  assert.deepEqual(finishReasonsOfBody({ data: [] }), []);
  assert.deepEqual(finishReasonsOfBody(null), []);
});

Deno.test("finish reasons: stream events", () => {
  assert.equal(
    finishReasonOfEvent(
      '{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
    ),
    "tool_calls",
  );
  assert.equal(
    finishReasonOfEvent('{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{}}'),
    "max_tokens",
  );
  assert.equal(
    finishReasonOfEvent(
      '{"type":"response.completed","response":{"id":"r","status":"completed","output":[{"status":"completed"}]}}',
    ),
    "completed",
  );
  assert.equal(
    finishReasonOfEvent('{"choices":[{"delta":{"content":"hi"},"finish_reason":null}]}'),
    null,
  );
  assert.equal(finishReasonOfEvent('{"type":"response.output_text.delta","delta":"status"}'), null);
});
