/**
 * The one error type of the gateway. Thrown anywhere (it extends Hono's `HTTPException`, the
 * one control-flow error) and rendered at the edge in the client protocol's own envelope.
 * @module
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** What went wrong, independent of any wire format. Each envelope maps these to its own types. */
export type ErrorKind =
  | "invalid_request"
  | "authentication"
  | "permission"
  | "not_found"
  | "method_not_allowed"
  | "request_too_large"
  | "rate_limit"
  /** A spending budget is used up (OpenAI `insufficient_quota`; Anthropic has no own type:
   * `rate_limit_error`). */
  | "quota"
  | "upstream"
  | "overloaded"
  | "unavailable"
  | "timeout"
  | "api";

/** Options beyond kind, status and message. */
export interface GatewayErrorOptions {
  /** The request field at fault, as a dotted path. */
  param?: string | null;
  /** A stable machine-readable code (`model_not_found`, `invalid_api_key`, ...). */
  code?: string | null;
  /** Extra response headers (`Allow`, `Retry-After`). */
  headers?: Record<string, string>;
  /** Which limit refused (`rpm`, `tpm`, `max_parallel`, `budget`) when several share a code;
   * for metrics and logs, never on the wire. */
  limit?: string | null;
  cause?: unknown;
}

/** A failure that reaches the client with a status and a message saying what to do. */
export class GatewayError extends HTTPException {
  readonly kind: ErrorKind;
  readonly param: string | null;
  readonly code: string | null;
  readonly limit: string | null;
  readonly headers: Record<string, string>;

  constructor(
    kind: ErrorKind,
    status: ContentfulStatusCode,
    message: string,
    options: GatewayErrorOptions = {},
  ) {
    super(status, { message, cause: options.cause });
    this.name = "GatewayError";
    this.kind = kind;
    this.param = options.param ?? null;
    this.code = options.code ?? null;
    this.limit = options.limit ?? null;
    this.headers = options.headers ?? {};
  }
}

/** 400 for a request the gateway cannot accept as sent. */
export function invalidRequest(message: string, param?: string, code?: string): GatewayError {
  return new GatewayError("invalid_request", 400, message, { param, code });
}

/** 404 for a model that is not in the catalog. */
export function modelNotFound(model: string): GatewayError {
  return new GatewayError(
    "not_found",
    404,
    `Model "${model}" is not in the catalog: GET /v1/models lists the valid ids.`,
    { param: "model", code: "model_not_found" },
  );
}

/** The code of every "the upstream stream ended before its terminal event" error: the lifecycle
 * records such an ending as `upstream_cut`. */
export const STREAM_INCOMPLETE = "stream_incomplete";

/** The client closed its connection while its request was being read: nobody is left to answer,
 * and nothing failed on the gateway's side. */
export class ClientGone extends Error {
  constructor(cause: unknown) {
    super("The client closed the connection before its request body was read.", { cause });
    this.name = "ClientGone";
  }
}

/** The code of a stream the gateway ended because the upstream went silent. */
export const STREAM_IDLE_TIMEOUT = "stream_idle_timeout";

/** 502 for an upstream stream that ended (closed, or its connection broke) before its terminal
 * event; `missing` names the event that never came. */
export function streamIncomplete(provider: string, missing: string, detail = ""): GatewayError {
  return new GatewayError(
    "upstream",
    502,
    `Provider "${provider}" ended the stream before ${missing}${detail}; the response is ` +
      "incomplete. Retry the request.",
    { code: STREAM_INCOMPLETE },
  );
}
