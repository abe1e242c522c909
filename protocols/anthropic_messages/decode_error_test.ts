import assert from "node:assert/strict";
import { decodeAnthropicError, decodeAnthropicStreamError } from "./decode_error.ts";

Deno.test("decodeAnthropicError reads the envelope and keeps retry-after on 429", () => {
  const err = decodeAnthropicError(
    "anthropic",
    429,
    { type: "error", error: { type: "rate_limit_error", message: "slow down" } },
    new Headers({ "retry-after": "7" }),
  );
  assert.equal(err.kind, "rate_limit");
  assert.equal(err.status, 429);
  // Anthropic's type is not a code: each envelope names the kind its own way.
  assert.equal(err.code, null);
  assert.equal(err.headers["retry-after"], "7");
  assert.match(err.message, /anthropic.*429.*slow down/);
});

Deno.test("decodeAnthropicError turns a provider 401 into a 502 about the gateway's key", () => {
  const err = decodeAnthropicError(
    "anthropic",
    401,
    { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
    new Headers(),
  );
  assert.equal(err.status, 502);
  assert.equal(err.kind, "upstream");
});

Deno.test("decodeAnthropicError quotes a raw body and survives odd shapes", () => {
  const raw = decodeAnthropicError("anthropic", 500, "<html>oops</html>", new Headers());
  assert.match(raw.message, /oops/);
  assert.equal(raw.kind, "upstream");
  const odd = decodeAnthropicError("anthropic", 400, { error: 5 }, new Headers());
  assert.equal(odd.kind, "invalid_request");
});

Deno.test("decodeAnthropicStreamError derives the status from the error type", () => {
  const overloaded = decodeAnthropicStreamError("anthropic", {
    type: "error",
    error: { type: "overloaded_error", message: "Overloaded" },
  });
  assert.equal(overloaded.status, 529);
  assert.equal(overloaded.kind, "overloaded");
  assert.equal(overloaded.code, null);
  const unknown = decodeAnthropicStreamError("anthropic", { error: { type: "new_error" } });
  assert.equal(unknown.status, 500);
});

Deno.test("an over-long prompt is coded context_length_exceeded for clients that act on it", () => {
  const err = decodeAnthropicError(
    "anthropic",
    400,
    {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "prompt is too long: 210000 tokens > 200000 maximum",
      },
    },
    new Headers(),
  );
  assert.equal(err.status, 400);
  assert.equal(err.code, "context_length_exceeded");
});
