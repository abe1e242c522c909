/**
 * The upstream status policy: a provider's 401/403 reaches the client as a 502 about the
 * gateway's credential, without the provider's message (which can quote the operator's key).
 */
import assert from "node:assert/strict";
import { upstreamError } from "./upstream_error.ts";
import { decodeError } from "./openai_chat/decode_error.ts";
import { decodeAnthropicError } from "./anthropic_messages/decode_error.ts";

const MASKED = "Incorrect API key provided: sk-proj-****abcd. You can find your API key at " +
  "https://platform.openai.com/account/api-keys.";

Deno.test("upstream 401/403: 502 naming the provider and the operator's key, no key fragment", () => {
  for (const status of [401, 403]) {
    const error = upstreamError({
      provider: "openai",
      status,
      message: MASKED,
      code: "invalid_api_key",
      headers: new Headers(),
    });
    assert.equal(error.status, 502, "the status the client sees is unchanged");
    assert.equal(error.kind, "upstream");
    assert.equal(error.code, "upstream_auth_failed", "not the provider's invalid_api_key");
    assert.match(error.message, /Provider "openai" refused the gateway's credential/);
    assert.match(error.message, new RegExp(`HTTP ${status}`));
    assert.match(error.message, /operator must check the openai provider key/);
    assert.match(error.message, /your gatehouse key is fine/);
    assert.doesNotMatch(error.message, /sk-|\*\*\*\*|abcd|Incorrect API key/);
  }
});

Deno.test("upstream 401: no key fragment through either wire's error decoding", () => {
  const chat = decodeError(
    "openai",
    401,
    { error: { message: MASKED, type: "invalid_request_error", code: "invalid_api_key" } },
    new Headers(),
  );
  const anthropic = decodeAnthropicError(
    "anthropic",
    401,
    {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key sk-ant-…WXYZ" },
    },
    new Headers(),
  );
  for (const error of [chat, anthropic]) {
    assert.equal(error.status, 502);
    assert.doesNotMatch(error.message, /sk-|abcd|WXYZ|invalid x-api-key/);
  }
});

Deno.test("upstream errors other than 401/403 keep the provider's message", () => {
  const error = upstreamError({
    provider: "openai",
    status: 400,
    message: "messages.0.content: bad block",
    headers: new Headers(),
  });
  assert.equal(error.status, 400);
  assert.match(error.message, /bad block/);
});

Deno.test("upstream 429: the provider's retry headers reach the client, other headers do not", () => {
  const error = upstreamError({
    provider: "openai",
    status: 429,
    message: "Rate limit reached",
    code: "rate_limit_exceeded",
    headers: new Headers({
      "retry-after": "7",
      "retry-after-ms": "6500",
      "x-should-retry": "false",
      "x-ratelimit-remaining-requests": "0",
    }),
  });
  assert.equal(error.status, 429);
  assert.deepEqual(error.headers, {
    "retry-after": "7",
    "retry-after-ms": "6500",
    "x-should-retry": "false",
  });
});
