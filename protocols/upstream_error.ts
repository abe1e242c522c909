/**
 * How an upstream HTTP failure reaches the client: one status policy for every wire. Each wire's
 * `decodeError` extracts the message and type from its own error body and calls this.
 * @module
 */
import { type ErrorKind, GatewayError } from "../core/errors.ts";
import type { HeaderReader } from "../core/header_reader.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** What a wire's error body said. */
export interface UpstreamFailure {
  /** Provider name as the catalog calls it (`openai`, `anthropic`, ...). */
  provider: string;
  status: number;
  message: string;
  /** The upstream's own error type or code, if any (`rate_limit_error`, `context_length_exceeded`). */
  code?: string | null;
  param?: string | null;
  headers: HeaderReader;
}

/** What a provider says about retrying an error: passed on to the client, which acts on it
 * (Claude Code and the SDKs obey `x-should-retry` before `retry-after`). */
export const RETRY_HEADERS = ["retry-after", "retry-after-ms", "x-should-retry"] as const;

/** The code of every upstream 401/403 the client is told about. */
const UPSTREAM_AUTH_FAILED = "upstream_auth_failed";

/** Maps an upstream failure to the gateway error the client sees. An upstream 401/403 means the
 * gateway's provider credential is wrong, not the client's key, so the client gets 502 naming the
 * provider; the {@link RETRY_HEADERS} are kept; other statuses pass through with their kind. */
export function upstreamError(f: UpstreamFailure): GatewayError {
  const headers: Record<string, string> = {};
  for (const name of RETRY_HEADERS) {
    const value = f.headers.get(name);
    if (value) headers[name] = value;
  }
  if (f.status === 401 || f.status === 403) {
    // The provider's own message is about the operator's key and can quote it (OpenAI's 401
    // says "Incorrect API key provided: sk-proj-****abcd"): it is not passed on, and neither is
    // its code (`invalid_api_key` would tell the client its own key is wrong).
    return new GatewayError(
      "upstream",
      502,
      `Provider "${f.provider}" refused the gateway's credential for it (HTTP ${f.status}). ` +
        `The gatehouse operator must check the ${f.provider} provider key and its access; ` +
        "your gatehouse key is fine.",
      { code: UPSTREAM_AUTH_FAILED, headers },
    );
  }
  const said = f.message ? `: ${f.message}` : "";
  const kind = kindOf(f.status);
  const status = (f.status >= 400 && f.status <= 599 ? f.status : 502) as ContentfulStatusCode;
  return new GatewayError(
    kind,
    status,
    `Provider "${f.provider}" returned HTTP ${f.status}${said}`,
    {
      code: f.code ?? null,
      param: f.param ?? null,
      headers,
    },
  );
}

function kindOf(status: number): ErrorKind {
  if (status === 400 || status === 422) return "invalid_request";
  if (status === 404) return "not_found";
  if (status === 413) return "request_too_large";
  if (status === 429) return "rate_limit";
  if (status === 529 || status === 503) return "overloaded";
  if (status === 504 || status === 408) return "timeout";
  return "upstream";
}
