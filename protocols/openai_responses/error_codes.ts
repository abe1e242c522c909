/**
 * Error codes between the Responses wire and gateway errors: a failure reported inside an
 * upstream stream (`error` event, `response.failed`) → a gateway error, and a gateway error →
 * the `response.error` a Responses client reads. Codex routes on these codes:
 * `context_length_exceeded` (compact the history), `insufficient_quota` (stop),
 * `rate_limit_exceeded` (back off), anything else (retry).
 * @module
 */
import { type ErrorKind, GatewayError } from "../../core/errors.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";

const INVALID_REQUEST_CODES = new Set([
  "invalid_prompt",
  "bio_policy",
  "misalignment_policy_violation",
  "data_residency_mismatch",
  "invalid_image",
  "invalid_image_format",
  "invalid_base64_image",
  "invalid_image_url",
  "image_too_large",
  "image_too_small",
  "image_parse_error",
  "image_content_policy_violation",
  "invalid_image_mode",
  "image_file_too_large",
  "unsupported_image_media_type",
  "empty_image_file",
  "failed_to_download_image",
  "image_file_not_found",
]);

function kindOfCode(code: string): { kind: ErrorKind; status: ContentfulStatusCode } {
  if (code === "rate_limit_exceeded" || code === "insufficient_quota") {
    return { kind: "rate_limit", status: 429 };
  }
  if (code === "context_length_exceeded" || INVALID_REQUEST_CODES.has(code)) {
    return { kind: "invalid_request", status: 400 };
  }
  if (code === "vector_store_timeout") return { kind: "timeout", status: 504 };
  return { kind: "upstream", status: 502 };
}

/** A failure an upstream reported inside its stream → a gateway error keeping its code. */
export function streamFailure(
  provider: string,
  code: string | null | undefined,
  message: string | null | undefined,
): GatewayError {
  const c = code || "server_error";
  const { kind, status } = kindOfCode(c);
  const said = message ? `: ${message}` : "";
  return new GatewayError(
    kind,
    status,
    `Provider "${provider}" failed the response (${c})${said}`,
    {
      code: c,
    },
  );
}

/** Codes gatehouse itself gives its failures. A failed response's `error.code` is a closed set
 * on the Responses wire (the SDKs type it as an enum) that has no word for these, so they go out
 * as the code of their kind (`server_error`), the message saying what broke. Codes an upstream
 * gave (`context_length_exceeded`, which Codex acts on) pass through. */
const GATEWAY_CODES = new Set([
  "stream_incomplete",
  "stream_idle_timeout",
  "upstream_invalid_response",
  "upstream_unreachable",
  "upstream_timeout",
  "upstream_connect_timeout",
  "upstream_error",
  "internal_error",
  "gateway_shutting_down",
  "no_healthy_deployment",
]);

/** A gateway error → the `{code, message}` of a failed Responses response. */
export function responsesErrorOf(error: GatewayError): { code: string; message: string } {
  const code = error.code && !GATEWAY_CODES.has(error.code) ? error.code : codeOfKind(error.kind);
  return { code, message: error.message };
}

function codeOfKind(kind: ErrorKind): string {
  switch (kind) {
    case "rate_limit":
      return "rate_limit_exceeded";
    case "quota":
      return "insufficient_quota";
    case "invalid_request":
    case "request_too_large":
      return "invalid_prompt";
    default:
      return "server_error";
  }
}
