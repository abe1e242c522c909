import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { responsesStreamEnds } from "./stream_ends.ts";

const created = {
  type: "response.created",
  sequence_number: 0,
  response: {
    id: "resp_1",
    object: "response",
    status: "in_progress",
    model: "gpt-5.5",
    output: [],
  },
};

Deno.test("responsesStreamEnds: completed and incomplete are clean ends; failed and error are not", () => {
  const ends = responsesStreamEnds();
  assert.equal(ends.see({ event: "response.created", data: JSON.stringify(created) }), null);
  assert.equal(ends.see({ data: '{"type":"response.completed","response":{}}' }), "finish");
  assert.equal(ends.see({ data: '{"type":"response.incomplete","response":{}}' }), "finish");
  assert.equal(ends.see({ data: '{"type":"response.failed","response":{}}' }), "error");
  assert.equal(ends.see({ event: "error", data: '{"type":"error","code":"x"}' }), "error");
  assert.ok(ends.pattern.test('"type":"response.created"'));
});

Deno.test("responsesStreamEnds: a broken stream fails the announced response, numbered after the last event", () => {
  const ends = responsesStreamEnds();
  ends.see({ event: "response.created", data: JSON.stringify(created) });
  const text = ends.failure(
    new GatewayError("upstream", 502, "Cut.", { code: "stream_incomplete" }),
    'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":7}\n\n',
  );
  assert.match(text, /^event: response.failed\n/);
  const event = JSON.parse(text.split("data: ")[1]!);
  assert.equal(event.sequence_number, 8);
  assert.equal(event.response.id, "resp_1");
  assert.equal(event.response.model, "gpt-5.5");
  assert.equal(event.response.status, "failed");
  // The wire's own code for a failure of the server's side; the message says what broke.
  assert.deepEqual(event.response.error, { code: "server_error", message: "Cut." });
});

Deno.test("responsesStreamEnds: with no numbered event sent yet, the failure is numbered 0, never unnumbered", () => {
  const ends = responsesStreamEnds();
  const text = ends.failure(new GatewayError("upstream", 502, "Cut."), ": keep-alive\n\n");
  const event = JSON.parse(text.split("data: ")[1]!);
  assert.equal(event.sequence_number, 0);
  assert.equal(event.response.status, "failed");
});
