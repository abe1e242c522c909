/**
 * The one error a bad catalog raises: it stops the start and names the file, the field path
 * and the reason for every problem found.
 * @module
 */

/** One problem: where (`models[3].endpoint_types[0]`, empty for the whole file) and why. */
export interface CatalogIssue {
  path: string;
  message: string;
}

/** A catalog that cannot be used. The message has one `source: path: reason` line per issue. */
export class CatalogError extends Error {
  /** The file (or `built-in default catalog`, or `environment`) the issues are in. */
  readonly source: string;
  readonly issues: readonly CatalogIssue[];

  constructor(source: string, issues: readonly CatalogIssue[], options?: ErrorOptions) {
    super(issues.map((issue) => formatIssue(source, issue)).join("\n"), options);
    this.name = "CatalogError";
    this.source = source;
    this.issues = issues;
  }
}

function formatIssue(source: string, issue: CatalogIssue): string {
  return issue.path === ""
    ? `${source}: ${issue.message}`
    : `${source}: ${issue.path}: ${issue.message}`;
}

/** Writes a property path the way a reader would type it: `providers["my.vendor"].headers`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "symbol") out += `[${String(key)}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}
