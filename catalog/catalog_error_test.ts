import assert from "node:assert/strict";
import { CatalogError, formatPath } from "./catalog_error.ts";

Deno.test("CatalogError writes one source: path: reason line per issue", () => {
  const error = new CatalogError("catalog.json", [
    { path: "models[3].endpoint_types[0]", message: "Invalid option" },
    { path: "", message: "not valid JSON" },
  ]);
  assert.ok(error instanceof Error);
  assert.equal(error.name, "CatalogError");
  assert.equal(error.source, "catalog.json");
  assert.equal(
    error.message,
    "catalog.json: models[3].endpoint_types[0]: Invalid option\ncatalog.json: not valid JSON",
  );
  assert.equal(error.issues.length, 2);
});

Deno.test("formatPath writes paths as they would be typed", () => {
  assert.equal(formatPath(["models", 3, "endpoint_types", 0]), "models[3].endpoint_types[0]");
  assert.equal(
    formatPath(["providers", "my-vendor", "base_url"]),
    'providers["my-vendor"].base_url',
  );
  assert.equal(formatPath(["$schema"]), "$schema");
  assert.equal(formatPath([]), "");
});
