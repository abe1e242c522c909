import assert from "node:assert/strict";
import { prependHistory, previousResponseId } from "./history.ts";
import { coreRequest } from "./test_util.ts";

Deno.test("previousResponseId: read from the raw body", () => {
  assert.equal(previousResponseId({ previous_response_id: "resp_1" }), "resp_1");
  assert.equal(previousResponseId({ previous_response_id: "" }), null);
  assert.equal(previousResponseId({ previous_response_id: 3 }), null);
  assert.equal(previousResponseId(null), null);
});

Deno.test("prependHistory: earlier turns go first, the request is not mutated", () => {
  const request = coreRequest();
  const history = [
    { role: "user" as const, content: [{ type: "text" as const, text: "before" }] },
    { role: "assistant" as const, content: [{ type: "text" as const, text: "answer" }] },
  ];
  const joined = prependHistory(request, history);
  assert.deepEqual(joined.messages, [...history, ...request.messages]);
  assert.equal(request.messages.length, 1);
});
