/**
 * The model catalog: config schema, loading and validation, id resolution (aliases, patterns),
 * credentials and base URL overrides, endpoint checks, and the `/v1/models` bodies.
 * @module
 */
export * from "./schema.ts";
export * from "./catalog_error.ts";
export * from "./resolved.ts";
export { Catalog, type CatalogDeployment, type CatalogOptions } from "./catalog.ts";
export { parseCatalogConfig, parseCatalogText } from "./parse_config.ts";
export { CONFIG_ENV, loadCatalog, type LoadCatalogOptions } from "./load.ts";
export { DEFAULT_CATALOG_SOURCE, defaultCatalog } from "./default_catalog.ts";
export { BASE_URL_OVERRIDES, DEFAULT_BASE_URLS, normalizeBaseUrl } from "./resolve_provider.ts";
export { checkEndpoint, ENDPOINT_ROUTES, servesEndpoint } from "./check_endpoint.ts";
export * from "./listing.ts";
export * from "./listing_schema.ts";
export { catalogJsonSchema, WRITE_JSON_SCHEMA_COMMAND } from "./json_schema.ts";
