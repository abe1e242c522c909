/**
 * Turns zod issues into catalog issues a person can act on: the field path as they would type
 * it, the reason, the offending value and, for a misspelt field, the field they meant.
 * @module
 */
import { z } from "zod";
import { type CatalogIssue, formatPath } from "./catalog_error.ts";

/** One catalog issue per problem zod found in a value parsed with `schema`. */
export function formatZodIssues(
  issues: readonly z.core.$ZodIssue[],
  schema: z.ZodType,
): CatalogIssue[] {
  return issues.flatMap((issue): CatalogIssue[] => {
    const path = issue.path;
    switch (issue.code) {
      case "unrecognized_keys": {
        const allowed = fieldsAt(schema, path);
        return issue.keys.map((key) => ({
          path: formatPath([...path, key]),
          message: `unknown field${suggest(key, allowed)}`,
        }));
      }
      case "invalid_key": {
        const reason = issue.issues[0]?.message ?? issue.message;
        return [{ path: formatPath(path), message: `invalid name: ${reason}` }];
      }
      case "invalid_type":
        if (!("input" in issue) || issue.input === undefined) {
          return [{
            path: formatPath(path),
            message: `required field is missing (expected ${issue.expected})`,
          }];
        }
        return [{ path: formatPath(path), message: withValue(issue.message, issue, path) }];
      default:
        return [{ path: formatPath(path), message: withValue(issue.message, issue, path) }];
    }
  });
}

/** Appends the offending value, except under `headers` (which may hold secrets). */
function withValue(message: string, issue: z.core.$ZodIssue, path: readonly PropertyKey[]) {
  if (path.includes("headers") || !("input" in issue)) return message;
  const input = issue.input;
  const shown = typeof input === "string" || typeof input === "number" ||
      typeof input === "boolean" || input === null
    ? JSON.stringify(input)
    : undefined;
  return shown !== undefined && shown.length <= 80 ? `${message} (got ${shown})` : message;
}

/** The field names the object schema at `path` accepts, or none when it is not an object. */
function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    current = current === undefined ? undefined : child(unwrap(current), key);
  }
  const target = current === undefined ? undefined : unwrap(current);
  return target instanceof z.ZodObject ? Object.keys(target.shape) : [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (
    current instanceof z.ZodDefault || current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable
  ) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function child(schema: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  if (schema instanceof z.ZodObject && typeof key === "string") {
    return (schema.shape as Record<string, z.ZodType>)[key];
  }
  if (schema instanceof z.ZodArray && typeof key === "number") return schema.element as z.ZodType;
  if (schema instanceof z.ZodRecord) return schema.valueType as z.ZodType;
  return undefined;
}

function suggest(key: string, allowed: readonly string[]): string {
  if (allowed.length === 0) return "";
  const ranked = allowed
    .map((name) => ({ name, distance: editDistance(key.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance);
  const best = ranked[0];
  if (best !== undefined && best.distance <= Math.max(2, Math.floor(key.length / 3))) {
    return `; did you mean "${best.name}"?`;
  }
  return `; allowed fields: ${allowed.join(", ")}`;
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}
