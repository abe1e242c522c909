/**
 * The Anthropic error envelope, for errors gatehouse answers a Messages client with (HTTP error
 * bodies and the `error` event of a stream).
 * @module
 */
import type { ErrorKind, GatewayError } from "../../core/errors.ts";

/** Anthropic's error `type` for a gateway error kind. `method_not_allowed` has no type of its
 * own and is a malformed request; `upstream` (the provider failed) and `unavailable` (gatehouse
 * cannot serve right now, not a capacity signal) are `api_error`: `overloaded_error` would tell
 * Claude Code the model is overloaded, which is a different claim. */
export function anthropicErrorType(kind: ErrorKind): string {
  switch (kind) {
    case "invalid_request":
    case "method_not_allowed":
      return "invalid_request_error";
    case "authentication":
      return "authentication_error";
    case "permission":
      return "permission_error";
    case "not_found":
      return "not_found_error";
    case "request_too_large":
      return "request_too_large";
    case "rate_limit":
    case "quota":
      return "rate_limit_error";
    case "overloaded":
      return "overloaded_error";
    case "timeout":
      return "timeout_error";
    case "upstream":
    case "unavailable":
    case "api":
      return "api_error";
  }
}

/** The Anthropic error body. */
export interface AnthropicErrorBody {
  type: "error";
  error: { type: string; message: string };
}

/** A gateway error → `{"type":"error","error":{"type","message"}}`. */
export function anthropicErrorBody(err: GatewayError): AnthropicErrorBody {
  return { type: "error", error: { type: anthropicErrorType(err.kind), message: err.message } };
}
