/**
 * Contract tests generated from the route table: for every canonical/bare pair, the same status
 * and body shape with a valid key, with no key and with a wrong key, and the document naming the
 * twin; for every POST-only route, a GET is the route error (405 + Allow), whatever the key; for
 * every route, each declared security scheme is accepted exactly where the row's `security` names
 * it. Nothing here names a route.
 */
import assert from "node:assert/strict";
import { SECURITY_SCHEMES } from "../routes/security.ts";
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
const credentials: Array<[string, Record<string, string>]> = [
  ["a valid key", { authorization: `Bearer ${harness.key}` }],
  ["no key", {}],
  ["a wrong key", { authorization: "Bearer gth_aaaaaaaaaa_wrongwrongwrongwrongwrongwrongwr" }],
];

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
    ...(verb === "POST" && body !== undefined ? { json: body } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    allow: response.headers.get("allow"),
    json: JSON.parse(text) as unknown,
  };
}

for (const spec of routeList.filter((s) => s.bare !== null)) {
  const canonical = examplePath(spec, spec.route.path, openapi);
  const bare = examplePath(spec, spec.bare!, openapi);
  for (const [label, headers] of credentials) {
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
  for (const [scheme, definition] of Object.entries(SECURITY_SCHEMES)) {
    const headers = definition.type === "http"
      ? { authorization: `Bearer ${harness.key}` }
      : { [definition.name]: harness.key };
    const expected = named.has(scheme) ? 200 : 401;
    Deno.test(`${method} ${spec.route.path} with a valid key as ${scheme} alone is ${expected}`, async () => {
      const result = await call(spec, path, headers);
      assert.equal(result.status, expected, JSON.stringify(result.json));
    });
  }
}

for (const spec of routeList.filter((s) => s.route.method === "post")) {
  for (const path of [spec.route.path, spec.bare!]) {
    for (const [label, headers] of credentials) {
      Deno.test(`GET ${path} is a route error (405, Allow: POST) with ${label}`, async () => {
        const result = await call(spec, path, headers, "GET");
        assert.equal(result.status, 405);
        assert.equal(result.allow, "POST");
        const error = spec.envelope === "anthropic"
          ? (result.json as { type: string; error: { message: string } }).error
          : (result.json as { error: { message: string } }).error;
        assert.match(error.message, /takes POST only/);
      });
    }
  }
}

Deno.test({
  name: "contract tests: close the harness",
  fn: () => harness.close(),
});
