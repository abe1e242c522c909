import assert from "node:assert/strict";
import { GatewayError, streamIncomplete } from "../core/errors.ts";
import { upstreamError } from "../protocols/upstream_error.ts";
import {
  AttemptFailed,
  finalError,
  NO_HEALTHY_DEPLOYMENT,
  noHealthyDeployment,
} from "./attempt_failure.ts";

/** A retryable status from `provider`, as its codec reads it. */
function statusFailure(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  provider = "anthropic",
): AttemptFailed {
  const error = upstreamError({ provider, status, message, headers: new Headers(headers) });
  return new AttemptFailed("retryable_status", status, error);
}

Deno.test("AttemptFailed: carries its result, status, client error and retry-after", () => {
  const error = new GatewayError("rate_limit", 429, "slow down");
  const failure = new AttemptFailed("retryable_status", 429, error, 5000);
  assert.equal(failure.name, "AttemptFailed");
  assert.equal(failure.message, "slow down");
  assert.equal(failure.result, "retryable_status");
  assert.equal(failure.status, 429);
  assert.equal(failure.error, error);
  assert.equal(failure.cause, error);
  assert.equal(failure.retryAfterMs, 5000);
  assert.equal(new AttemptFailed("cut", 200, error).retryAfterMs, null);
});

Deno.test("finalError: a 429 stays 429 with its retry headers", () => {
  const failure = statusFailure(429, "Rate limited", {
    "retry-after": "7",
    "x-should-retry": "true",
  });
  const error = finalError(failure, 3);
  assert.equal(error.status, 429);
  assert.equal(error.kind, "rate_limit");
  assert.equal(error.headers["retry-after"], "7");
  assert.equal(error.headers["x-should-retry"], "true");
  assert.match(error.message, /Provider "anthropic" returned HTTP 429/);
  assert.match(error.message, /3 attempts/);
});

Deno.test("finalError: a single attempt whose error already fits is returned as it is", () => {
  const failure = statusFailure(429, "Rate limited", { "retry-after": "7" });
  assert.equal(finalError(failure, 1), failure.error);
});

Deno.test("finalError: 529 overloaded becomes 503", () => {
  const error = finalError(statusFailure(529, "Overloaded"), 3);
  assert.equal(error.status, 503);
  assert.equal(error.kind, "overloaded");
  assert.match(error.message, /Provider "anthropic" returned HTTP 529: Overloaded/);
  assert.match(error.message, /3 attempts/);
});

Deno.test("finalError: 503 stays 503", () => {
  const error = finalError(statusFailure(503, "Service Unavailable", {}, "openai"), 2);
  assert.equal(error.status, 503);
  assert.equal(error.kind, "overloaded");
  assert.match(error.message, /"openai" returned HTTP 503/);
});

Deno.test("finalError: an overloaded error event after a 200 becomes 503", () => {
  const decoded = upstreamError({
    provider: "anthropic",
    status: 529,
    message: "Overloaded",
    headers: new Headers(),
  });
  const error = finalError(new AttemptFailed("error_event", 200, decoded), 2);
  assert.equal(error.status, 503);
  assert.equal(error.kind, "overloaded");
});

Deno.test("finalError: 500 and 502 become 502, the upstream status still named", () => {
  for (const status of [500, 502]) {
    const error = finalError(statusFailure(status, "Internal error", {}, "openai"), 3);
    assert.equal(error.status, 502, String(status));
    assert.equal(error.kind, "upstream");
    assert.match(error.message, new RegExp(`"openai" returned HTTP ${status}`));
    assert.match(error.message, /3 attempts/);
  }
});

Deno.test("finalError: a single 500 attempt also becomes 502", () => {
  const error = finalError(statusFailure(500, "Internal error"), 1);
  assert.equal(error.status, 502);
  assert.match(error.message, /HTTP 500/);
  assert.doesNotMatch(error.message, /attempts/);
});

Deno.test("finalError: 408 and 504 become 504", () => {
  for (const status of [408, 504]) {
    const error = finalError(statusFailure(status, "Timed out"), 2);
    assert.equal(error.status, 504, String(status));
    assert.equal(error.kind, "timeout");
  }
});

Deno.test("finalError: connect and header timeouts become 504", () => {
  const timeout = new GatewayError("timeout", 504, 'Provider "openai" did not answer in time.');
  const unreachable = new GatewayError("upstream", 502, "Could not connect in time.");
  for (const result of ["connect_timeout", "header_timeout"] as const) {
    for (const cause of [timeout, unreachable]) {
      const error = finalError(new AttemptFailed(result, 0, cause), 3);
      assert.equal(error.status, 504, result);
      assert.equal(error.kind, "timeout");
      assert.match(error.message, /3 attempts/);
    }
  }
});

Deno.test("finalError: an unreachable provider and a cut stream become 502", () => {
  const unreachable = new GatewayError("upstream", 502, 'Could not reach provider "openai".');
  const cut = streamIncomplete("openai", "its first event");
  for (
    const failure of [
      new AttemptFailed("unreachable", 0, unreachable),
      new AttemptFailed("cut", 200, cut),
    ]
  ) {
    const error = finalError(failure, 2);
    assert.equal(error.status, 502, failure.result);
    assert.equal(error.kind, "upstream");
    assert.equal(error.code, failure.error.code);
  }
});

Deno.test("finalError: a context overflow keeps its 400 and code", () => {
  const decoded = upstreamError({
    provider: "openai",
    status: 400,
    message: "This model's maximum context length is 8192 tokens.",
    code: "context_length_exceeded",
    param: "messages",
    headers: new Headers(),
  });
  const error = finalError(new AttemptFailed("context_overflow", 400, decoded), 2);
  assert.equal(error.status, 400);
  assert.equal(error.kind, "invalid_request");
  assert.equal(error.code, "context_length_exceeded");
  assert.equal(error.param, "messages");
  assert.match(error.message, /2 attempts/);
});

Deno.test("finalError: the new error keeps code and param, and points at the failure", () => {
  const decoded = new GatewayError("upstream", 500, "boom", { code: "server_error", param: "x" });
  const failure = new AttemptFailed("retryable_status", 500, decoded);
  const error = finalError(failure, 4);
  assert.equal(error.code, "server_error");
  assert.equal(error.param, "x");
  assert.equal(error.cause, failure);
  assert.equal(error.message, "After 4 attempts: boom");
});

Deno.test("noHealthyDeployment: 503 with retry-after in whole seconds, rounded up", () => {
  const error = noHealthyDeployment("gpt-5", 1500);
  assert.equal(error.status, 503);
  assert.equal(error.kind, "overloaded");
  assert.equal(error.code, NO_HEALTHY_DEPLOYMENT);
  assert.equal(error.headers["retry-after"], "2");
  assert.match(error.message, /"gpt-5"/);
  assert.match(error.message, /2 s/);
  assert.equal(noHealthyDeployment("gpt-5", 30_000).headers["retry-after"], "30");
  assert.equal(noHealthyDeployment("gpt-5", 30_001).headers["retry-after"], "31");
});

Deno.test("noHealthyDeployment: a cool-down about to end still says 1 s", () => {
  assert.equal(noHealthyDeployment("gpt-5", 0).headers["retry-after"], "1");
  assert.equal(noHealthyDeployment("gpt-5", 1).headers["retry-after"], "1");
});

Deno.test("noHealthyDeployment: no known end, no retry-after", () => {
  const error = noHealthyDeployment("gpt-5", null);
  assert.equal(error.status, 503);
  assert.deepEqual(error.headers, {});
  assert.doesNotMatch(error.message, /comes back/);
});
