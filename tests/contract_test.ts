/**
 * Contract tests generated from the route table: for every canonical/bare pair, the same status
 * and body shape with a valid key, with no key and with a wrong key, and the document naming the
 * twin; for every route that takes a key, 401 without one and with a wrong one; for every route,
 * each declared security scheme is accepted exactly where the row's `security` names it (with an
 * admin key where the row asks for the admin role), answering a status the row documents with a
 * body its schema accepts; on every admin-only route, a key without the role is 403 whatever the
 * scheme; on every path, a method it does not serve is the route error (405 + Allow: the methods
 * the table has for it), whatever the key. Nothing here names a route.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import { requiresAdmin, SECURITY_SCHEMES } from "../routes/security.ts";
import { BARE_PATH_FIELD, routeList, type RouteSpec } from "../routes/table.ts";
import { makeHarness } from "./harness.ts";

/** The structure of a JSON value: keys and leaf types, arrays by their first element. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).sort().map((k) => [k, shape((value as Record<string, unknown>)[k])]),
    );
  }
  return value === null ? "null" : typeof value;
}

/** Fills path parameters from the examples the OpenAPI document gives them. */
function examplePath(spec: RouteSpec, path: string, document: OpenApiDoc): string {
  const operation = document.paths[spec.route.path]?.[spec.route.method];
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const parameter = operation?.parameters?.find((p) => p.name === name && p.in === "path");
    const example = parameter?.example ?? parameter?.schema?.example;
    if (typeof example !== "string") {
      throw new Error(`${spec.route.path}: parameter ${name} has no example`);
    }
    return example;
  });
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<
          { name: string; in: string; example?: unknown; schema?: { example?: unknown } }
        >;
        [BARE_PATH_FIELD]?: string;
      }
    >
  >;
}

function exampleBody(spec: RouteSpec): unknown {
  const content =
    (spec.route.request?.body as { content?: Record<string, { example?: unknown }> } | undefined)
      ?.content;
  return content?.["application/json"]?.example;
}

const harness = await makeHarness();
const openapi = await (await harness.request("/openapi.json")).json() as OpenApiDoc;
/** The key that may call `spec`: the admin key where its security asks for the admin role. */
const keyFor = (spec: RouteSpec) =>
  requiresAdmin(spec.route.security) ? harness.adminKey : harness.key;
const credentials = (spec: RouteSpec): Array<[string, Record<string, string>]> => [
  ["a valid key", { authorization: `Bearer ${keyFor(spec)}` }],
  ["no key", {}],
  ["a wrong key", { authorization: "Bearer gth_aaaaaaaaaa_wrongwrongwrongwrongwrongwrongwr" }],
];

/** The schema a row documents for `status` in `type` (JSON unless told), if any. */
function documentedSchema(
  spec: RouteSpec,
  status: number,
  type = "application/json",
): z.ZodType | undefined {
  const response = (spec.route.responses as Record<string, unknown>)[status] as
    | { content?: Record<string, { schema?: z.ZodType }> }
    | undefined;
  return response?.content?.[type]?.schema;
}

async function call(
  spec: RouteSpec,
  path: string,
  headers: Record<string, string>,
  method?: string,
) {
  const body = exampleBody(spec);
  const verb = method ?? spec.route.method.toUpperCase();
  const response = await harness.request(path, {
    method: verb,
    headers: {
      ...headers,
      ...(spec.envelope === "anthropic" ? { "anthropic-version": "2023-06-01" } : {}),
    },
    // The row's own method sends its example body; a wrong-method probe sends none.
    ...(method === undefined && body !== undefined ? { json: body } : {}),
  });
  const text = await response.text();
  // A non-JSON answer (`/metrics`: text/plain) is checked against its own documented schema.
  const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
  return {
    status: response.status,
    allow: response.headers.get("allow"),
    type,
    json: type === "application/json" ? JSON.parse(text) as unknown : text,
  };
}

for (const spec of routeList.filter((s) => s.bare !== null)) {
  const canonical = examplePath(spec, spec.route.path, openapi);
  const bare = examplePath(spec, spec.bare!, openapi);
  for (const [label, headers] of credentials(spec)) {
    Deno.test(`${spec.route.method.toUpperCase()} ${spec.route.path} and ${spec.bare} agree with ${label}`, async () => {
      const a = await call(spec, canonical, headers);
      const b = await call(spec, bare, headers);
      assert.equal(a.status, b.status);
      assert.deepEqual(shape(a.json), shape(b.json));
      if (label === "a valid key") assert.equal(a.status, 200, JSON.stringify(a.json));
      else {
        assert.equal(a.status, 401);
        const body = a.json as { type?: string; error: { type: string; message: string } };
        if (spec.envelope === "anthropic") assert.equal(body.type, "error");
        assert.match(body.error.message, label === "no key" ? /No API key/ : /not valid/);
      }
    });
  }
}

for (const spec of routeList.filter((s) => s.bare !== null)) {
  Deno.test(`the document names ${spec.bare} as the bare twin of ${spec.route.path}`, () => {
    const operation = openapi.paths[spec.route.path]?.[spec.route.method];
    assert.equal(operation?.[BARE_PATH_FIELD], spec.bare);
  });
}

for (const spec of routeList.filter((s) => s.route.security.length > 0)) {
  const method = spec.route.method.toUpperCase();
  const path = examplePath(spec, spec.route.path, openapi);
  for (const [label, headers] of credentials(spec).slice(1)) {
    Deno.test(`${method} ${spec.route.path} with ${label} is 401`, async () => {
      const result = await call(spec, path, headers);
      assert.equal(result.status, 401, JSON.stringify(result.json));
      const error = (result.json as { error: { message: string } }).error;
      assert.match(error.message, label === "no key" ? /No API key/ : /not valid/);
    });
  }
}

/** The success status of a row: 200 for a path without parameters. A parameter filled from its
 * example may name nothing in this gateway (a key id): then the row's documented 404 is the
 * answer that shows the route and its key were accepted. */
function accepted(spec: RouteSpec, status: number): boolean {
  if (status === 200) return true;
  return /\{\w+\}/.test(spec.route.path) && status === 404 &&
    documentedSchema(spec, 404) !== undefined;
}

for (const spec of routeList) {
  const method = spec.route.method.toUpperCase();
  const path = examplePath(spec, spec.route.path, openapi);
  const named = new Set(spec.route.security.flatMap((requirement) => Object.keys(requirement)));
  if (named.size === 0) {
    Deno.test(`${method} ${spec.route.path} answers without a key (its security is empty)`, async () => {
      assert.equal((await call(spec, path, {})).status, 200);
    });
    continue;
  }
  const key = keyFor(spec);
  for (const [scheme, definition] of Object.entries(SECURITY_SCHEMES)) {
    const headers = definition.type === "http"
      ? { authorization: `Bearer ${key}` }
      : { [definition.name]: key };
    const expected = named.has(scheme) ? "accepted" : "401";
    Deno.test(`${method} ${spec.route.path} with a valid key as ${scheme} alone is ${expected}`, async () => {
      const result = await call(spec, path, headers);
      if (expected === "401") assert.equal(result.status, 401, JSON.stringify(result.json));
      else {assert.ok(
          accepted(spec, result.status),
          `${result.status} ${JSON.stringify(result.json)}`,
        );}
      const schema = documentedSchema(spec, result.status, result.type);
      assert.ok(schema, `${result.status} ${result.type} is documented for ${spec.route.path}`);
      const parsed = schema.safeParse(result.json);
      assert.ok(parsed.success, `${result.status} body fits its schema: ${parsed.error?.message}`);
    });
  }
  if (!requiresAdmin(spec.route.security)) continue;
  for (const [scheme, definition] of Object.entries(SECURITY_SCHEMES)) {
    if (!named.has(scheme)) continue;
    const headers = definition.type === "http"
      ? { authorization: `Bearer ${harness.key}` }
      : { [definition.name]: harness.key };
    Deno.test(`${method} ${spec.route.path} with a key that is not an admin key as ${scheme} is 403`, async () => {
      const result = await call(spec, path, headers);
      assert.equal(result.status, 403, JSON.stringify(result.json));
      const error = (result.json as { error: { type: string; message: string } }).error;
      assert.equal(error.type, "permission_error");
      assert.ok(documentedSchema(spec, 403)?.safeParse(result.json).success);
    });
  }
}

/** Every path of the table (canonical and bare) with the methods it serves, in table order. */
const served = new Map<string, { spec: RouteSpec; methods: string[] }>();
for (const spec of routeList) {
  for (const path of [spec.route.path, ...(spec.bare === null ? [] : [spec.bare])]) {
    const entry = served.get(path) ?? { spec, methods: [] };
    entry.methods.push(spec.route.method.toUpperCase());
    served.set(path, entry);
  }
}

for (const [template, { spec, methods }] of served) {
  const probe = ["GET", "POST", "PUT", "PATCH", "DELETE"].find((m) => !methods.includes(m))!;
  const allow = methods.join(", ");
  const path = examplePath(spec, template, openapi);
  for (const [label, headers] of credentials(spec)) {
    Deno.test(`${probe} ${template} is a route error (405, Allow: ${allow}) with ${label}`, async () => {
      const result = await call(spec, path, headers, probe);
      assert.equal(result.status, 405);
      assert.equal(result.allow, allow);
      const error = spec.envelope === "anthropic"
        ? (result.json as { type: string; error: { message: string } }).error
        : (result.json as { error: { message: string } }).error;
      assert.ok(error.message.includes(`takes ${allow} only`), error.message);
    });
  }
}

Deno.test({
  name: "contract tests: close the harness",
  fn: () => harness.close(),
});
