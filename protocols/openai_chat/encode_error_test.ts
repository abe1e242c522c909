import assert from "node:assert/strict";
import { type ErrorKind, GatewayError, modelNotFound } from "../../core/errors.ts";
import { openaiErrorBody, openaiErrorType } from "./encode_error.ts";

Deno.test("openaiErrorBody renders the OpenAI envelope with the error's own code", () => {
  assert.deepEqual(openaiErrorBody(modelNotFound("nope")), {
    error: {
      message: 'Model "nope" is not in the catalog: GET /v1/models lists the valid ids.',
      type: "invalid_request_error",
      param: "model",
      code: "model_not_found",
    },
  });
});

Deno.test("openaiErrorBody falls back to the kind's default code", () => {
  const err = new GatewayError("authentication", 401, "Invalid key.");
  assert.deepEqual(openaiErrorBody(err).error, {
    message: "Invalid key.",
    type: "authentication_error",
    param: null,
    code: "invalid_api_key",
  });
});

Deno.test("openaiErrorType maps every error kind", () => {
  const expected: Record<ErrorKind, [string, string | null]> = {
    invalid_request: ["invalid_request_error", null],
    method_not_allowed: ["invalid_request_error", null],
    request_too_large: ["invalid_request_error", "request_too_large"],
    not_found: ["invalid_request_error", "not_found"],
    authentication: ["authentication_error", "invalid_api_key"],
    permission: ["permission_error", null],
    rate_limit: ["rate_limit_error", "rate_limit_exceeded"],
    quota: ["insufficient_quota", "insufficient_quota"],
    upstream: ["server_error", "upstream_error"],
    overloaded: ["server_error", "overloaded"],
    unavailable: ["server_error", "service_unavailable"],
    timeout: ["server_error", "timeout"],
    api: ["api_error", null],
  };
  for (const [kind, [type, code]] of Object.entries(expected)) {
    assert.deepEqual(openaiErrorType(kind as ErrorKind), { type, code }, kind);
  }
});
