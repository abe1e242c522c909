/**
 * Turns a zod validation failure into the one-line message of a 400: the field path and what is
 * wrong with it. Union failures are resolved to the branch that got furthest, so a bad content
 * part reports `messages.3.content.0.type`, not `messages.3.content`.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import { type GatewayError, invalidRequest } from "../../core/errors.ts";

type Issue = z.core.$ZodIssue;

function deepest(issue: Issue): { path: PropertyKey[]; message: string } {
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    let best: { path: PropertyKey[]; message: string } | undefined;
    for (const branch of issue.errors) {
      const first = branch[0];
      if (!first) continue;
      const found = deepest(first);
      if (!best || found.path.length > best.path.length) best = found;
    }
    if (best && best.path.length > 0) {
      return { path: [...issue.path, ...best.path], message: best.message };
    }
  }
  return { path: issue.path, message: issue.message };
}

/** The dotted path of a zod path (`messages.3.content.0.type`). */
export function dottedPath(path: readonly PropertyKey[]): string {
  return path.map((key) => String(key)).join(".");
}

/** A 400 naming the first invalid field of `error`. */
export function invalidBody(error: z.ZodError): GatewayError {
  const first = error.issues[0];
  if (!first) return invalidRequest("The request body is invalid.");
  const { path, message } = deepest(first);
  const where = dottedPath(path);
  return invalidRequest(where ? `${where}: ${message}` : message, where || undefined);
}
