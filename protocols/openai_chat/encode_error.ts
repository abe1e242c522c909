/**
 * The OpenAI error envelope `{"error":{"message","type","param","code"}}`, shared by every
 * OpenAI route (chat, responses, images, models, usage).
 * @module
 */
import type { ErrorKind, GatewayError } from "../../core/errors.ts";
import { assertNever } from "../../core/stream.ts";

/** The body of an OpenAI error response. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** Core error kind → OpenAI error `type`, and the `code` used when the error has none.
 *
 * | kind                                          | type                    | default code          |
 * |-----------------------------------------------|-------------------------|-----------------------|
 * | invalid_request, method_not_allowed, request_too_large | invalid_request_error | — (`request_too_large` for 413) |
 * | not_found                                     | invalid_request_error   | `not_found`           |
 * | authentication                                | authentication_error    | `invalid_api_key`     |
 * | permission                                    | permission_error        | —                     |
 * | rate_limit                                    | rate_limit_error        | `rate_limit_exceeded` |
 * | quota                                         | insufficient_quota      | `insufficient_quota`  |
 * | upstream, overloaded, unavailable, timeout    | server_error            | `upstream_error`, `overloaded`, `service_unavailable`, `timeout` |
 * | api                                           | api_error               | —                     |
 *
 * OpenAI reports 400, 404, 405 and 413 all as `invalid_request_error`; 5xx as `server_error`. */
export function openaiErrorType(kind: ErrorKind): { type: string; code: string | null } {
  switch (kind) {
    case "invalid_request":
    case "method_not_allowed":
      return { type: "invalid_request_error", code: null };
    case "request_too_large":
      return { type: "invalid_request_error", code: "request_too_large" };
    case "not_found":
      return { type: "invalid_request_error", code: "not_found" };
    case "authentication":
      return { type: "authentication_error", code: "invalid_api_key" };
    case "permission":
      return { type: "permission_error", code: null };
    case "rate_limit":
      return { type: "rate_limit_error", code: "rate_limit_exceeded" };
    case "quota":
      return { type: "insufficient_quota", code: "insufficient_quota" };
    case "upstream":
      return { type: "server_error", code: "upstream_error" };
    case "overloaded":
      return { type: "server_error", code: "overloaded" };
    case "unavailable":
      return { type: "server_error", code: "service_unavailable" };
    case "timeout":
      return { type: "server_error", code: "timeout" };
    case "api":
      return { type: "api_error", code: null };
    default:
      return assertNever(kind, "error kind");
  }
}

/** A gateway error in the OpenAI envelope. The error's own code wins over the default. */
export function openaiErrorBody(err: GatewayError): OpenAIErrorBody {
  const { type, code } = openaiErrorType(err.kind);
  return { error: { message: err.message, type, param: err.param, code: err.code ?? code } };
}
