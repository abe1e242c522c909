import assert from "node:assert/strict";
import { AnthropicError, OpenAIError } from "./schemas.ts";
import { API_PREFIX, BARE_PATH_FIELD, routeList } from "./table.ts";

Deno.test("every /v1 row's bare twin is derived from its path and named in its operation", () => {
  for (const spec of routeList) {
    const path = spec.route.path;
    const bare = path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : null;
    assert.equal(spec.bare, bare, path);
    assert.equal((spec.route as Record<string, unknown>)[BARE_PATH_FIELD], bare ?? undefined, path);
  }
  assert.ok(routeList.some((spec) => spec.bare === "/models/{id}"));
  assert.ok(routeList.some((spec) => spec.bare === null));
});

Deno.test("every row's error responses are in the row's envelope", () => {
  let checked = 0;
  for (const spec of routeList) {
    for (const [status, response] of Object.entries(spec.route.responses)) {
      const schema = (response as { content?: Record<string, { schema?: unknown }> }).content
        ?.["application/json"]?.schema;
      // Error envelopes only: `/readyz` answers 503 with a health body.
      if (schema !== AnthropicError && schema !== OpenAIError) continue;
      assert.equal(schema === AnthropicError, spec.envelope === "anthropic", spec.route.path);
      assert.ok(Number(status) >= 400);
      checked++;
    }
  }
  assert.ok(checked > routeList.length);
});

Deno.test("every path parameter is declared by its row (the contract tests fill it from the example)", () => {
  for (const spec of routeList) {
    const params = spec.route.request?.params as { shape: Record<string, unknown> } | undefined;
    for (const name of spec.route.path.match(/\{(\w+)\}/g) ?? []) {
      const field = params?.shape[name.slice(1, -1)];
      assert.ok(field, `${spec.route.path}: ${name} is declared`);
    }
  }
});

Deno.test("no two rows share a method and path; an operation id names each once", () => {
  const seen = new Set<string>();
  const ids = new Set<string>();
  for (const spec of routeList) {
    const key = `${spec.route.method} ${spec.route.path}`;
    assert.ok(!seen.has(key), key);
    seen.add(key);
    const id = spec.route.operationId ?? "";
    assert.ok(id !== "" && !ids.has(id), `${key}: operation id ${id}`);
    ids.add(id);
  }
});
