import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { chatStreamEnds } from "./stream_ends.ts";

Deno.test("chatStreamEnds: [DONE] and a finish_reason are clean ends; an error chunk is not", () => {
  const ends = chatStreamEnds();
  assert.equal(ends.see({ data: "[DONE]" }), "finish");
  assert.equal(ends.see({ data: '{"choices":[{"delta":{},"finish_reason":"stop"}]}' }), "finish");
  assert.equal(
    ends.see({ data: '{"choices":[{"delta":{"content":"x"},"finish_reason":null}]}' }),
    null,
  );
  assert.equal(ends.see({ data: '{"error":{"message":"Overloaded"}}' }), "error");
  for (const text of ["[DONE]", '"finish_reason":"stop"', '"error": {']) {
    assert.ok(ends.pattern.test(text), text);
  }
  assert.ok(!ends.pattern.test('{"finish_reason":null,"content":"an \\"error\\" here"}'));
});

Deno.test("chatStreamEnds: a broken stream ends with OpenAI's error chunk alone", () => {
  const text = chatStreamEnds().failure(new GatewayError("upstream", 502, "Cut."), "");
  assert.equal(
    text,
    'data: {"error":{"message":"Cut.","type":"server_error","param":null,"code":"upstream_error"}}\n\n',
  );
});
