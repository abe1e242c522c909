/**
 * Validation of a catalog config: the zod schema first, then the cross-field rules. Either
 * step failing throws one `CatalogError` listing every problem with its field path.
 * @module
 */
import { CatalogError } from "./catalog_error.ts";
import { semanticIssues } from "./check_semantics.ts";
import { formatZodIssues } from "./format_issues.ts";
import { parseJsonc } from "./jsonc.ts";
import { CatalogConfig } from "./schema.ts";

/** Validates a parsed config value. `source` names it in error messages (usually the file). */
export function parseCatalogConfig(input: unknown, source: string): CatalogConfig {
  const result = CatalogConfig.safeParse(input, { reportInput: true });
  if (!result.success) {
    throw new CatalogError(source, formatZodIssues(result.error.issues, CatalogConfig));
  }
  const issues = semanticIssues(result.data);
  if (issues.length > 0) throw new CatalogError(source, issues);
  return result.data;
}

/** Parses and validates the text of a catalog file (JSON, or JSON with comments). */
export function parseCatalogText(text: string, source: string): CatalogConfig {
  let input: unknown;
  try {
    input = parseJsonc(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CatalogError(source, [{ path: "", message: `not valid JSON: ${reason}` }], {
      cause: error,
    });
  }
  return parseCatalogConfig(input, source);
}
