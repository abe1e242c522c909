import assert from "node:assert/strict";
import { z } from "zod";
import { formatZodIssues } from "./format_issues.ts";

const Schema = z.strictObject({
  name: z.string(),
  size: z.number().int().default(1),
  tags: z.array(z.strictObject({ label: z.string() })).optional(),
  secret: z.strictObject({ headers: z.record(z.string(), z.string()) }).optional(),
});

const issuesOf = (input: unknown) => {
  const result = Schema.safeParse(input, { reportInput: true });
  assert.ok(!result.success);
  return formatZodIssues(result.error.issues, Schema);
};

Deno.test("formatZodIssues walks through optional, default and array wrappers for suggestions", () => {
  assert.deepEqual(issuesOf({ name: "n", tags: [{ lable: "x" }] }), [
    { path: "tags[0].label", message: "required field is missing (expected string)" },
    { path: "tags[0].lable", message: 'unknown field; did you mean "label"?' },
  ]);
  assert.deepEqual(issuesOf({ name: "n", colour: "red" }), [
    { path: "colour", message: "unknown field; allowed fields: name, size, tags, secret" },
  ]);
});

Deno.test("formatZodIssues shows short scalar values but never header values or objects", () => {
  assert.deepEqual(issuesOf({ name: 7 }), [
    { path: "name", message: "Invalid input: expected string, received number (got 7)" },
  ]);
  assert.deepEqual(issuesOf({ name: { nested: true } }), [
    { path: "name", message: "Invalid input: expected string, received object" },
  ]);
  assert.deepEqual(issuesOf({ name: "n", secret: { headers: { authorization: false } } }), [
    {
      path: "secret.headers.authorization",
      message: "Invalid input: expected string, received boolean",
    },
  ]);
  const long = "x".repeat(200);
  assert.deepEqual(issuesOf({ name: "n", size: long }), [
    { path: "size", message: "Invalid input: expected number, received string" },
  ]);
});
