import assert from "node:assert/strict";
import { decodeError, errorFacts, streamError, truncatedStream } from "./decode_error.ts";

Deno.test("errorFacts reads OpenAI, vLLM, FastAPI, string and raw bodies", () => {
  assert.deepEqual(
    errorFacts({
      error: {
        message: "bad",
        type: "invalid_request_error",
        code: "context_length_exceeded",
        param: "messages",
      },
    }),
    { message: "bad", code: "context_length_exceeded", param: "messages" },
  );
  assert.deepEqual(
    errorFacts({ object: "error", message: "m", type: "BadRequestError", code: 400 }),
    {
      message: "m",
      code: "BadRequestError",
      param: null,
    },
  );
  assert.equal(
    errorFacts({ detail: [{ msg: "field required" }] }).message,
    '[{"msg":"field required"}]',
  );
  assert.deepEqual(errorFacts({ error: "model not found" }), {
    message: "model not found",
    code: null,
    param: null,
  });
  assert.equal(errorFacts("  Bad Gateway\n").message, "Bad Gateway");
  assert.equal(errorFacts(null).message, "");
});

Deno.test("decodeError maps status and keeps retry-after", () => {
  const err = decodeError(
    "openai",
    429,
    { error: { message: "slow down", type: "requests", code: "rate_limit_exceeded" } },
    new Headers({ "retry-after": "7" }),
  );
  assert.equal(err.status, 429);
  assert.equal(err.kind, "rate_limit");
  assert.equal(err.code, "rate_limit_exceeded");
  assert.equal(err.headers["retry-after"], "7");
  assert.match(err.message, /slow down/);
});

Deno.test("decodeError turns an upstream 401 into a 502 about the provider credential", () => {
  const err = decodeError("deepseek", 401, { error: { message: "bad key" } }, new Headers());
  assert.equal(err.status, 502);
  assert.match(err.message, /deepseek/);
});

Deno.test("streamError keeps rate limits and overload, else 502", () => {
  assert.equal(streamError("p", { message: "x", type: "rate_limit_error" }).status, 429);
  assert.equal(streamError("p", { error: { message: "busy", code: "overloaded" } }).status, 503);
  const other = streamError("p", { error: { message: "boom", type: "server_error" } });
  assert.equal(other.status, 502);
  assert.match(other.message, /boom/);
  assert.equal(truncatedStream("p").code, "stream_incomplete");
});
