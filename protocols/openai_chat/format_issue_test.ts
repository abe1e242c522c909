import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { dottedPath, invalidBody } from "./format_issue.ts";
import { ChatCompletionRequestSchema } from "./schemas.ts";

function errorOf(body: unknown): GatewayError {
  const parsed = ChatCompletionRequestSchema.safeParse(body);
  assert.equal(parsed.success, false);
  return invalidBody(parsed.error!);
}

Deno.test("invalidBody names the deepest field of a union failure", () => {
  const err = errorOf({
    model: "m",
    messages: [{ role: "user", content: [{ type: "text", text: "a" }, { type: "video" }] }],
  });
  assert.equal(err.status, 400);
  assert.equal(err.kind, "invalid_request");
  assert.equal(err.param, "messages.0.content.1.type");
  assert.match(err.message, /^messages\.0\.content\.1\.type: /);
});

Deno.test("invalidBody names a missing top-level field", () => {
  const err = errorOf({ messages: [{ role: "user", content: "x" }] });
  assert.equal(err.param, "model");
});

Deno.test("dottedPath joins keys", () => {
  assert.equal(dottedPath(["messages", 3, "content"]), "messages.3.content");
});
