/**
 * Start-up loading: the file `GATEHOUSE_CONFIG` names (or the built-in default), validated and
 * bound to the environment. Any problem throws a `CatalogError` that names the file.
 * @module
 */
import { Catalog } from "./catalog.ts";
import { CatalogError } from "./catalog_error.ts";
import { DEFAULT_CATALOG_SOURCE, defaultCatalog } from "./default_catalog.ts";
import { parseCatalogConfig, parseCatalogText } from "./parse_config.ts";
import type { EnvReader } from "./resolved.ts";

/** The variable naming the catalog file. */
export const CONFIG_ENV = "GATEHOUSE_CONFIG";

/** What `loadCatalog` reads. */
export interface LoadCatalogOptions {
  /** The catalog file; when absent, `GATEHOUSE_CONFIG` from `env`, else the built-in default. */
  path?: string;
  /** Serve every model from the mock provider. */
  demo?: boolean;
  env: EnvReader;
}

/** Reads, validates and binds the catalog. Throws `CatalogError` naming file, field and reason. */
export async function loadCatalog(options: LoadCatalogOptions): Promise<Catalog> {
  const fromEnv = options.env(CONFIG_ENV);
  const path = options.path ?? (fromEnv === undefined || fromEnv === "" ? undefined : fromEnv);
  const source = path ?? DEFAULT_CATALOG_SOURCE;
  const config = path === undefined
    ? parseCatalogConfig(defaultCatalog, source)
    : parseCatalogText(await readConfig(path), source);
  return new Catalog(config, options.env, { demo: options.demo ?? false, source });
}

async function readConfig(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? `file not found (set ${CONFIG_ENV} to an existing catalog file, or unset it for the ` +
        "built-in default)"
      : `cannot read the file: ${error instanceof Error ? error.message : String(error)}`;
    throw new CatalogError(path, [{ path: "", message: reason }], { cause: error });
  }
}
