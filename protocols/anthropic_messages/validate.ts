/**
 * Zod validation that fails with the gateway's 400, naming the field path.
 * @module
 */
import { safeParseChecked } from "../../core/schema_check.ts";
import type { z } from "@hono/zod-openapi";
import { invalidRequest } from "../../core/errors.ts";

/** Most issues listed in one error message. */
const MAX_ISSUES = 3;

/** Parses `value` with `schema`; on failure throws `invalidRequest` whose message names each
 * offending path (prefixed by `at`, e.g. `messages.3.content.0`). */
export function parseAt<T extends z.ZodType>(schema: T, value: unknown, at = ""): z.infer<T> {
  const result = safeParseChecked(schema, value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, MAX_ISSUES);
  const paths = issues.map((issue) =>
    [at, ...issue.path.map(String)].filter((p) => p !== "").join(".")
  );
  const message = issues.map((issue, i) => `${paths[i] || "body"}: ${issue.message}`).join("; ");
  throw invalidRequest(`Invalid request: ${message}`, paths[0] || undefined);
}
