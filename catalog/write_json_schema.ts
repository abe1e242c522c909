/**
 * Regenerates `catalog/catalog.schema.json` from the zod schema:
 * `deno run -A catalog/write_json_schema.ts`.
 * @module
 */
import { catalogJsonSchemaText } from "./json_schema.ts";

if (import.meta.main) {
  const target = new URL("./catalog.schema.json", import.meta.url);
  await Deno.writeTextFile(target, catalogJsonSchemaText());
  console.log(`wrote ${target.pathname}`);
}
