import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { messagesStreamEnds } from "./stream_ends.ts";

Deno.test("messagesStreamEnds: message_stop is a clean end, an error event a failed one", () => {
  const ends = messagesStreamEnds();
  assert.equal(ends.see({ event: "message_stop", data: '{"type":"message_stop"}' }), "finish");
  assert.equal(ends.see({ data: '{"type":"message_stop"}' }), "finish");
  assert.equal(ends.see({ event: "error", data: '{"type":"error","error":{}}' }), "error");
  assert.equal(ends.see({ event: "message_delta", data: '{"type":"message_delta"}' }), null);
  assert.ok(ends.pattern.test("event: message_stop\ndata: {}"));
  assert.ok(ends.pattern.test('event: error\ndata: {"type":"error"}'));
});

Deno.test("messagesStreamEnds: a broken stream ends with Anthropic's error event", () => {
  const error = new GatewayError("overloaded", 503, "Busy.");
  const text = messagesStreamEnds().failure(error, "");
  assert.match(text, /^event: error\ndata: /);
  const payload = JSON.parse(text.split("data: ")[1]!);
  assert.deepEqual(payload, {
    type: "error",
    error: { type: "overloaded_error", message: "Busy." },
  });
});
