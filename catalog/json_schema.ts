/**
 * The JSON Schema editors use to check and complete a catalog file (`"$schema":
 * "./catalog.schema.json"`), generated from the zod schema's input side so defaulted fields are
 * optional. `catalog.schema.json` is the checked-in copy; `write_json_schema.ts` regenerates it.
 * @module
 */
import { z } from "zod";
import { CatalogConfig } from "./schema.ts";

/** The command that rewrites `catalog/catalog.schema.json` from the zod schema. */
export const WRITE_JSON_SCHEMA_COMMAND = "deno run -A catalog/write_json_schema.ts";

/** The catalog file's JSON Schema (draft 2020-12). */
export function catalogJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(CatalogConfig, { io: "input", target: "draft-2020-12" }),
    title: "gatehouse catalog",
  };
}

/** The text written to `catalog.schema.json`. */
export function catalogJsonSchemaText(): string {
  return `${JSON.stringify(catalogJsonSchema(), null, 2)}\n`;
}
