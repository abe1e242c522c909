/**
 * Renders any error in the route's own envelope. `GatewayError` carries its status, message and
 * headers; Hono's own HTTP exceptions and unexpected errors are wrapped so that a client always
 * gets JSON in the envelope it parses, never a 200 that carries an error.
 * @module
 */
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { type ErrorKind, GatewayError, invalidRequest } from "../core/errors.ts";
import { openaiErrorBody } from "../protocols/openai_chat/encode_error.ts";
import { anthropicErrorBody } from "../protocols/anthropic_messages/encode_error.ts";
import type { Envelope } from "./table.ts";

/** Converts anything thrown into a `GatewayError`: a Hono HTTP exception keeps its status, and
 * anything else is a 500 that tells the client it was logged (`on_error.ts` sees to that). */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof HTTPException) {
    const kind: ErrorKind = error.status === 401
      ? "authentication"
      : error.status >= 500
      ? "api"
      : "invalid_request";
    return new GatewayError(
      kind,
      error.status as ContentfulStatusCode,
      error.message || "Request rejected.",
    );
  }
  return new GatewayError(
    "api",
    500,
    "The gateway failed unexpectedly while handling this request; it has been logged. Retry, and report it if it persists.",
    { code: "internal_error" },
  );
}

/** The response for `error` in `envelope`. */
export function errorResponse(error: GatewayError, envelope: Envelope): Response {
  const body = envelope === "anthropic" ? anthropicErrorBody(error) : openaiErrorBody(error);
  const headers = new Headers(error.headers);
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

/** A 400 naming the field paths of the first few schema violations in `target` (`json` for the
 * body, `query`, `param`). */
export function validationError(error: ZodError, target = "json"): GatewayError {
  const where = target === "json"
    ? "request body"
    : target === "query"
    ? "query string"
    : `request ${target}`;
  const issues = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(body)";
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : "";
  const first = error.issues[0]?.path.join(".");
  return invalidRequest(`Invalid ${where}: ${issues.join("; ")}${more}.`, first || undefined);
}
