import assert from "node:assert/strict";
import {
  catalogJsonSchema,
  catalogJsonSchemaText,
  WRITE_JSON_SCHEMA_COMMAND,
} from "./json_schema.ts";

type JsonObject = Record<string, unknown>;
const at = (value: unknown, ...keys: string[]): JsonObject => {
  let current = value;
  for (const key of keys) current = (current as JsonObject)[key];
  assert.ok(current !== null && typeof current === "object", keys.join("."));
  return current as JsonObject;
};

Deno.test("catalog.schema.json matches the zod schema", async () => {
  const file = new URL("./catalog.schema.json", import.meta.url);
  const checkedIn: unknown = JSON.parse(await Deno.readTextFile(file));
  const stale =
    `catalog/catalog.schema.json is stale: run \`${WRITE_JSON_SCHEMA_COMMAND}\` and commit it`;
  assert.deepEqual(checkedIn, catalogJsonSchema(), stale);
  assert.equal(await Deno.readTextFile(file), catalogJsonSchemaText(), stale);
});

Deno.test("the JSON Schema describes the input side: defaulted fields are optional", () => {
  const schema = catalogJsonSchema();
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.deepEqual(schema.required, ["providers", "models", "setup_defaults"]);
  const model = at(schema, "properties", "models", "items");
  assert.deepEqual(model.required, ["id", "endpoint_types"], "provider or deployments: semantic");
  assert.equal(model.additionalProperties, false);
  const deployments = at(model, "properties", "deployments");
  assert.equal(deployments.minItems, 1);
  const deployment = at(deployments, "items");
  assert.deepEqual(deployment.required, ["provider"]);
  assert.equal(deployment.additionalProperties, false);
  assert.deepEqual(at(deployment, "properties", "weight").exclusiveMinimum, 0);
  for (const field of ["provider", "deployments", "fallbacks", "fallback_on_context_overflow"]) {
    assert.equal(typeof at(model, "properties", field).description, "string", field);
  }
  const endpointTypes = at(model, "properties", "endpoint_types", "items");
  assert.deepEqual(endpointTypes.enum, ["openai", "anthropic", "image-generation"]);
  assert.equal(typeof at(model, "properties", "openai_wire").description, "string");
  const provider = at(schema, "properties", "providers", "additionalProperties");
  assert.deepEqual(provider.required, ["kind"]);
});
