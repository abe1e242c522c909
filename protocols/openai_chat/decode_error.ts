/**
 * Upstream failures of a Chat Completions server → gateway errors: HTTP error bodies and
 * error objects sent inside a stream.
 * @module
 */
import type { HeaderReader } from "../../core/header_reader.ts";
import { GatewayError, streamIncomplete } from "../../core/errors.ts";
import { upstreamError } from "../upstream_error.ts";

/** What an error body said, from the shapes servers use: OpenAI's `{"error":{...}}`, a string
 * `error`, vLLM's top-level `{"message","type","code"}`, FastAPI's `{"detail"}`, or a raw
 * text body. */
export interface ErrorFacts {
  message: string;
  code: string | null;
  param: string | null;
}

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

function fromObject(obj: Record<string, unknown>): ErrorFacts {
  const message = str(obj.message) ?? str(obj.detail) ??
    (obj.detail === undefined ? "" : JSON.stringify(obj.detail));
  // `code` is a string on OpenAI and a number (the HTTP status) on vLLM: prefer a string.
  return { message, code: str(obj.code) ?? str(obj.type), param: str(obj.param) };
}

/** Reads the message, code and param out of any error body. */
export function errorFacts(body: unknown): ErrorFacts {
  // A raw body (an HTML error page, say) is quoted, not carried whole.
  if (typeof body === "string") {
    return { message: body.trim().slice(0, 500), code: null, param: null };
  }
  if (body === null || typeof body !== "object") return { message: "", code: null, param: null };
  const obj = body as Record<string, unknown>;
  if (typeof obj.error === "string") return { message: obj.error, code: null, param: null };
  if (obj.error !== null && typeof obj.error === "object") {
    return fromObject(obj.error as Record<string, unknown>);
  }
  return fromObject(obj);
}

/** `decodeError` of the chat wire. */
export function decodeError(
  provider: string,
  status: number,
  body: unknown,
  headers: HeaderReader,
): GatewayError {
  const facts = errorFacts(body);
  return upstreamError({ provider, status, headers, ...facts });
}

/** An error object the upstream sent inside a 200 stream. It has no status: rate limits and
 * overload keep their meaning, anything else is a failed upstream (502). */
export function streamError(provider: string, payload: unknown): GatewayError {
  const facts = errorFacts(payload);
  const said = facts.message ? `: ${facts.message}` : "";
  const code = facts.code ?? "upstream_stream_error";
  if (/rate_limit/i.test(code)) {
    return new GatewayError(
      "rate_limit",
      429,
      `Provider "${provider}" rate-limited the stream${said}`,
      {
        code,
      },
    );
  }
  if (/overload/i.test(code)) {
    return new GatewayError("overloaded", 503, `Provider "${provider}" is overloaded${said}`, {
      code,
    });
  }
  return new GatewayError(
    "upstream",
    502,
    `Provider "${provider}" sent an error in the middle of the stream${said}`,
    { code, param: facts.param },
  );
}

/** The error for a stream that ended before its terminal event. */
export function truncatedStream(provider: string): GatewayError {
  return streamIncomplete(provider, "a finish_reason or [DONE]");
}
