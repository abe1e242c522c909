import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { parseAt, ResponsesRequestSchema, ResponsesResponseSchema } from "./schemas.ts";
import { fixtureJson } from "./test_util.ts";

Deno.test("parseAt: a violation is a 400 naming the full path", () => {
  assert.throws(() => parseAt(ResponsesRequestSchema, { model: "m", top_p: 3 }, ""), (e) => {
    assert.ok(e instanceof GatewayError);
    assert.equal(e.status, 400);
    assert.equal(e.param, "top_p");
    return true;
  });
  assert.throws(
    () => parseAt(ResponsesRequestSchema, { model: "m", tools: [{}] }, ""),
    (e) => e instanceof GatewayError && e.param === "tools.0.type",
  );
});

Deno.test("schemas: loose objects keep unknown fields; recorded bodies fit the response schema", async () => {
  const parsed = parseAt(ResponsesRequestSchema, { model: "m", future_field: 1 }, "");
  assert.equal((parsed as Record<string, unknown>).future_field, 1);
  for (const name of ["openai-custom-tool.1", "openai-reasoning-encrypted-content.1"]) {
    assert.ok(ResponsesResponseSchema.safeParse(await fixtureJson(name)).success, name);
  }
});
