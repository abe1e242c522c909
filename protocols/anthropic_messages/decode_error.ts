/**
 * Anthropic error bodies (HTTP error responses and the `error` stream event) → gateway errors.
 * @module
 */
import type { HeaderReader } from "../../core/header_reader.ts";
import type { GatewayError } from "../../core/errors.ts";
import { upstreamError } from "../upstream_error.ts";

/** The HTTP status Anthropic pairs with each error type, for errors that arrive inside a
 * stream (which has already answered 200). */
const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** Longest raw (non-JSON) body text quoted in a message. */
const RAW_LIMIT = 300;

/** The `error.type` and `error.message` of a body, if it has the Anthropic shape. */
export function readAnthropicError(body: unknown): { type?: string; message: string } {
  if (typeof body === "string") return { message: body.slice(0, RAW_LIMIT) };
  if (typeof body !== "object" || body === null) return { message: "" };
  const error = (body as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return { message: "" };
  const { type, message } = error as { type?: unknown; message?: unknown };
  return {
    type: typeof type === "string" ? type : undefined,
    message: typeof message === "string" ? message : "",
  };
}

/** The code a gateway error carries for an Anthropic failure. Anthropic's `error.type` is a
 * category the status already says (and other envelopes name it their own way), so it is not
 * a code; the one condition clients act on distinctly is an over-long prompt, which OpenAI
 * clients such as Codex recognise as `context_length_exceeded` and answer by compacting. */
export function anthropicErrorCode(type: string | undefined, message: string): string | null {
  if (
    type === "invalid_request_error" && /prompt is too long|context (window|length)/i.test(message)
  ) {
    return "context_length_exceeded";
  }
  return null;
}

/** An upstream HTTP error → the gateway error the client sees. */
export function decodeAnthropicError(
  provider: string,
  status: number,
  body: unknown,
  headers: HeaderReader,
): GatewayError {
  const { type, message } = readAnthropicError(body);
  return upstreamError({
    provider,
    status,
    message,
    code: anthropicErrorCode(type, message),
    headers,
  });
}

/** An `error` event inside a stream → a gateway error, its status taken from the error type
 * (`overloaded_error` → 529, unknown types → 500). */
export function decodeAnthropicStreamError(provider: string, body: unknown): GatewayError {
  const { type, message } = readAnthropicError(body);
  const status = (type !== undefined && Object.hasOwn(STATUS_OF_TYPE, type))
    ? STATUS_OF_TYPE[type] ?? 500
    : 500;
  return upstreamError({
    provider,
    status,
    message,
    code: anthropicErrorCode(type, message),
    headers: new Headers(),
  });
}
