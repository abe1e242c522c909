import assert from "node:assert/strict";
import { decodeError } from "./decode_error.ts";
import { fixtureJson } from "./test_util.ts";

Deno.test("decodeError: the recorded quota error keeps its message and code", async () => {
  const body = await fixtureJson("openai-error.1");
  const error = decodeError("openai", 429, body, new Headers({ "retry-after": "7" }));
  assert.equal(error.kind, "rate_limit");
  assert.equal(error.status, 429);
  assert.equal(error.code, "insufficient_quota");
  assert.match(error.message, /exceeded your current quota/);
  assert.equal(error.headers["retry-after"], "7");
});

Deno.test("decodeError: param, type fallback, plain text and credential failures", () => {
  const bad = decodeError(
    "openai",
    400,
    { error: { message: "bad", type: "invalid_request_error", param: "input", code: null } },
    new Headers(),
  );
  assert.equal(bad.kind, "invalid_request");
  assert.equal(bad.code, "invalid_request_error");
  assert.equal(bad.param, "input");
  const text = decodeError("openai", 500, "upstream exploded", new Headers());
  assert.equal(text.status, 500);
  assert.match(text.message, /upstream exploded/);
  const auth = decodeError(
    "openai",
    401,
    { error: { message: "Incorrect API key" } },
    new Headers(),
  );
  assert.equal(auth.status, 502);
  assert.match(auth.message, /credential/);
});
