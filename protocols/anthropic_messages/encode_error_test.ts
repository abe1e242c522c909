import assert from "node:assert/strict";
import { anthropicErrorBody, anthropicErrorType } from "./encode_error.ts";
import { type ErrorKind, GatewayError, invalidRequest } from "../../core/errors.ts";

Deno.test("anthropicErrorType maps every kind", () => {
  const cases: Array<[ErrorKind, string]> = [
    ["invalid_request", "invalid_request_error"],
    ["method_not_allowed", "invalid_request_error"],
    ["authentication", "authentication_error"],
    ["permission", "permission_error"],
    ["not_found", "not_found_error"],
    ["request_too_large", "request_too_large"],
    ["rate_limit", "rate_limit_error"],
    ["quota", "rate_limit_error"],
    ["overloaded", "overloaded_error"],
    ["timeout", "timeout_error"],
    ["upstream", "api_error"],
    ["unavailable", "api_error"],
    ["api", "api_error"],
  ];
  for (const [kind, type] of cases) assert.equal(anthropicErrorType(kind), type, kind);
});

Deno.test("anthropicErrorBody builds the envelope", () => {
  assert.deepEqual(anthropicErrorBody(invalidRequest("messages: required")), {
    type: "error",
    error: { type: "invalid_request_error", message: "messages: required" },
  });
  const overloaded = new GatewayError("overloaded", 503, "busy");
  assert.equal(anthropicErrorBody(overloaded).error.type, "overloaded_error");
});
