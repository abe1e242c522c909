/**
 * An upstream HTTP error from a Responses provider (`{"error": {message, type, param, code}}`,
 * or any other body) → the gateway error the client sees.
 * @module
 */
import type { GatewayError } from "../../core/errors.ts";
import { upstreamError } from "../upstream_error.ts";

interface ErrorBody {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  param?: unknown;
}

const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

/** Parses the wire's error body and applies the shared status policy. */
export function decodeError(
  provider: string,
  status: number,
  body: unknown,
  headers: Headers,
): GatewayError {
  let message = "";
  let code: string | null = null;
  let param: string | null = null;
  if (typeof body === "string") message = body.slice(0, 500);
  else if (typeof body === "object" && body !== null) {
    const outer = body as { error?: unknown; message?: unknown };
    const e =
      (typeof outer.error === "object" && outer.error !== null ? outer.error : outer) as ErrorBody;
    message = str(e.message) ?? (typeof outer.error === "string" ? outer.error : "");
    code = str(e.code) ?? str(e.type);
    param = str(e.param);
  }
  return upstreamError({ provider, status, message, code, param, headers });
}
